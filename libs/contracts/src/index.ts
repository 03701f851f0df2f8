export {
  ACTION_KINDS,
  type ActionKind,
  AUTOMATION_LEVELS,
  type AutomationLevel,
  BREAKER_KINDS,
  BREAKER_STATES,
  type BreakerKind,
  type BreakerStateName,
  type DecisionKind,
  DECISIONS,
  HITL_COMMANDS,
  type HitlCommandType,
  INTERVENTION_TYPES,
  type InterventionType,
  isServiceName,
  isSubjectToken,
  MessageId,
  NO_SCOPE,
  type Participant,
  PARTICIPANTS,
  PATTERN_TYPES,
  type PatternType,
  type Phase,
  PHASES,
  PhaseSchema,
  Probability,
  type ServiceName,
  SERVICES,
  SEVERITIES,
  type Severity,
  SeveritySchema,
  SUBJECT_TOKEN_PATTERN,
  SubjectToken,
  Timestamp,
  type VerdictKind,
  VerdictKindSchema,
  VERDICTS,
} from './vocabulary.js';
export {
  channel,
  type Channel,
  CHANNEL_IDS,
  type ChannelId,
  CHANNELS,
  channelsReceivedBy,
  type DeadLetterChannel,
  type RequestChannel,
  SESSION_CHANNEL_IDS,
  type SessionChannel,
  type SessionChannelId,
} from './channels.js';
export {
  anyChannelSubscription,
  DEAD_LETTER_ROOT,
  deadLetterStreamSubject,
  deadLetterSubject,
  deadLetterSubscription,
  parseSessionSubject,
  PARTITION_PROBE_ROOT,
  partitionFilter,
  partitionMapping,
  partitionProbeMapping,
  publishSubject,
  requestSubject,
  requestSubjects,
  type SessionAddress,
  sessionSubject,
  sessionSubscription,
  streamSubject,
  SUBJECT_ROOT,
} from './subjects.js';
export { partitionOf } from './partition.js';
export { ControlFlags, defineMessage, type Envelope, EnvelopeFields, envelopeSchema, type MessageDefinition } from './envelope.js';
export {
  type AnyMessage,
  definitionOf,
  type DefinitionOf,
  isMessageType,
  MESSAGE_DEFINITIONS,
  type MessageOf,
  messageSchema,
  type MessageType,
  messageTypesOn,
  type PayloadOf,
} from './catalog.js';
export { parseMessage, type RejectionReason, type SchemaError, validateMessage, type ValidationResult } from './validation.js';
export { derivedMessageId, newMessageId } from './ids.js';
export { createMessage, type MessageInit } from './message-factory.js';
export { buildAsyncApiDocument, CONTRACTS_VERSION, exampleMessage } from './asyncapi.js';
export { EXAMPLE_PAYLOADS } from './examples.js';
export { ActionFallback, ActionOutcome, ActionProposed, ActionRanAgainstDecision, GOAL_MAX_LENGTH, OVERRIDDEN_DECISIONS, SessionContext } from './messages/action.js';
export { UsageEntry, UsageReported, USAGE_SOURCES, type UsageSource } from './messages/usage.js';
export { goalAfter, SessionEnded, SessionGoalChanged, SessionPhaseChanged, SessionStarted, SessionToolsObserved, SessionTurnEnded, TURN_END_MAX_LENGTH } from './messages/session.js';
export { checkpointBucket, checkpointObjectName, CheckpointSaved } from './messages/checkpoint.js';
export { CONTROL_KINDS, ControlAcknowledged, ControlIssued, ResourceLimits } from './messages/control.js';
export { ReviewVerdict, RiskAssessment } from './messages/review.js';
export { DecisionMade } from './messages/decision.js';
export { PatternDetected } from './messages/pattern.js';
export { IncidentCreated, InterventionEvaluated, InterventionIssued, InterventionTrigger } from './messages/intervention.js';
export {
  BreakerCommand,
  BreakerCommandApplied,
  BreakerCostRecorded,
  BreakerError,
  BreakerStateChanged,
  BreakerTripped,
  BreakerWarning,
} from './messages/breaker.js';
export {
  GateCommand,
  GateEscalated,
  GateRequested,
  GateResponded,
  HitlInterventionRecorded,
  HitlPaused,
  HitlResumed,
} from './messages/gate.js';
export { LadderCommand, LadderLevelChanged, LadderMetrics, LadderMetricsUpdated } from './messages/ladder.js';
export { DEAD_LETTER_REASONS, type DeadLetterReason, DeadLetterRecorded } from './messages/deadletter.js';
export { AUDIT_QUERIES, AuditQuery, AuditResult } from './messages/audit.js';
export {
  AUTOMATION_LEVEL_BUCKET,
  AutomationLevelRecord,
  BREAKER_LEDGER_BUCKET,
  BREAKER_STATE_BUCKET,
  breakerStateKey,
  BreakerStateRecord,
  INTERVENTION_STATE_BUCKET,
  LADDER_RECORD_BUCKET,
  parseAutomationLevel,
  parseBreakerState,
  PATTERN_SESSION_BUCKET,
  SESSION_STATE_TTL_MS,
} from './supervision-state.js';
export {
  AUTOMATION_LEVEL_DEFINITIONS,
  type AutomationLevelDefinition,
  isAllowedAtLevel,
  LADDER_ACTIONS,
  type LadderAction,
} from './automation-ladder.js';
export { hasPhaseProgress, PhaseProgress } from './phase-progress.js';
export {
  GATE_BUFFER_ROOT,
  GATE_BUFFER_STREAM,
  GATE_CONTEXT_BUCKET,
  GATE_REQUEST_BUCKET,
  GATE_APPROVAL_BUCKET,
  GATE_SESSION_BUCKET,
  gateBufferStreamSubject,
  gateBufferSubject,
  OPERATOR_ID_HEADER,
  OPERATOR_REJECTION_PROMPT,
} from './gate-state.js';
export { canonicalJson } from './canonical-json.js';
export {
  actionDigest,
  DECISION_RECORD_BUCKET,
  DECISION_RECORD_TTL_MS,
  type DecisionRecord,
  decisionRecordKey,
  decisionRecordSubject,
  reusedActionIdDetail,
} from './decision-record.js';
export {
  CONTROL_MAILBOX_BUCKET,
  CONTROL_MAILBOX_KEPT,
  CONTROL_MAILBOX_TTL_MS,
  type ControlMailbox,
  controlMailboxKey,
  controlMailboxSubject,
} from './control-mailbox.js';
export { HOOK_SESSION_BUCKET, HOOK_SESSION_TTL_MS } from './gateway-state.js';
export { SEAL_KEY_BUCKET, SEAL_PRIVATE_KEY, SEAL_PUBLIC_KEY, SEAL_PUBLIC_KEY_SUBJECT } from './seal-keys.js';
export { OPERATOR_BUCKET, OPERATOR_SESSION_BUCKET, OPERATOR_SESSION_TTL_MS } from './operator-state.js';
export { eventTime } from './event-time.js';
