export type { AgentAdapter, AgentName, HookCallMeta } from './agent-adapter.js';
export { AGENT_ADAPTERS, agentAdapter } from './agents/index.js';
export { ANSWER_DEFAULTS, type AnswerPolicy, APPROVAL_ROUTES, type ApprovalRoute, approverFor, failsOpen, isInteractive, type SessionSurroundings } from './answer-policy.js';
export { type AgentCapabilities, type AnswerMode, canAsk, failClosedReason, stoppedAnswer, toolAnswerFor, toolCallAnswer, undecidedAnswer } from './capabilities.js';
export { type ControlGuidance, controlText, type EdgeAnswer, guidanceAnswer, isSilent, promptAnswer, stopReasonOf, type ToolAnswer, turnEndAnswer } from './edge-answer.js';
export { type EdgeEvent, type EdgeEventType, EdgeInputError, type EdgeSession, type EdgeToolCall, type EdgeToolResult } from './edge-event.js';
export { answerEvent, type EdgeContext, type EdgeOutcome, fallbackRecord, notRecordedWhy, recordUndecided, unhandledOutcome } from './edge-session.js';
export { type DeclarationSettings, expectedPathsFor, sessionDeclaration } from './session-declaration.js';
export { emptySessionState, type HookSessionState, SEEN_CONTROLS_KEPT, type SessionStates } from './session-state.js';
export { actionSummary, filesTouched, outputExcerpt, reportedFailure, toolAction, type ToolAction } from './tool-action.js';
// Claude Code's own formats, read by `warden replay` for transcripts.
export { claudeCodeAdapter } from './agents/claude-code/claude-code-adapter.js';
// Copilot CLI's reading of a command's exit code, shared with `warden replay`'s readers of its recordings.
export { commandFailed } from './agents/copilot/copilot-adapter.js';
export { type HookOutput } from './agents/claude-code/claude-code-answer.js';
export { cancelledBySibling } from './agents/claude-code/hook-input.js';
export { goalFromTranscript, goalFromTranscriptLines, promptText, requestOf } from './agents/claude-code/transcript-goal.js';
