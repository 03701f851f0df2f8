// What the gate service and the command line use of this library.
export {
  checkDeadlines,
  type DeadlineSettings,
  durationText,
  type EscalationRun,
  type EscalationStep,
  nextDeadline,
  NO_DEADLINE_SETTINGS,
  resolveDeadlineSettings,
} from './approval-deadlines.js';
export { type BufferEntry, type DecisionEntry, entryContent, type InjectEntry, type PauseTrigger, type StoredEntry, type Verdict } from './buffer-entry.js';
export { stateHash } from './canonical-hash.js';
export { approvalGoesToAgentUser, type Decision, decisionForHeld, decisionFromVerdict, type Resolution } from './decision-policy.js';
export { type OutgoingMessage } from './flush-plan.js';
export { answerProblem, approvalDigest, checkAnswer, digestProblem, type GateRequestRecord, rewrittenRequest, type ShownRequest, shownRequest, withEscalation } from './gate-request.js';
export {
  answerOf,
  type CommandOutcome,
  factsAfter,
  flushPlanOf,
  type GateEffect,
  type GateView,
  holdOf,
  onFlushed,
  onIdleUnpause,
  onInject,
  onPause,
  onResume,
  onRewrite,
  onDeadline,
  onVerdict,
  type ResumeHow,
  unpauseResolution,
} from './gate-session.js';
export { checkCommandMessage, checkHitlCommand, type HitlCommand, isHitlCommandType } from './hitl-command.js';
export { DEFAULT_GATE_TIMEOUT_MS, type HumanGate, resolveGates, resolveGateSettings, type SessionFacts } from './human-gates.js';
export { type PendingRequest, type SessionRelayState } from './relay-state.js';
