export {
  ANSWER_DEFAULTS,
  type AnswerPolicy,
  APPROVAL_ROUTES,
  type ApprovalRoute,
  approverFor,
  failsOpen,
  isInteractive,
  type SessionSurroundings,
} from './answer-policy.js';
export { type ControlBacklog, readControlBacklog } from './control-backlog.js';
export { answerHook, couldNotDecide, type HookContext, type HookOutcome, notRecordedWhy } from './hook-adapter.js';
export {
  type AnswerMode,
  type ControlGuidance,
  controlText,
  failClosedAnswer,
  failClosedReason,
  failOpenAnswer,
  guidanceAnswer,
  type HookOutput,
  preToolUseAnswer,
  promptAnswer,
  stopAnswer,
  stoppedAnswer,
  stopReasonOf,
} from './hook-answer.js';
export {
  type AnyHookInput,
  HOOK_EVENTS,
  type HookEvent,
  type HookInput,
  HookInputError,
  hookInputOf,
  parseHookInput,
  type SessionEndInput,
  type SessionStartInput,
  type StopInput,
  TOOL_HOOK_EVENTS,
  type ToolHookEvent,
  type UserPromptInput,
} from './hook-input.js';
export { claudeSessionDeclaration, type DeclarationSettings, expectedPathsFor } from './session-declaration.js';
export { emptySessionState, type HookSessionState, SEEN_CONTROLS_KEPT, type SessionStates } from './session-state.js';
export { actionSummary, filesTouched, outputExcerpt, toolAction, type ToolAction } from './tool-action.js';
export { goalFromTranscript, goalFromTranscriptLines, promptText, requestOf } from './transcript-goal.js';
