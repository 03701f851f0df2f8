export { type FallbackRecord, WardenClient, type WardenClientOptions } from './warden-client.js';
export {
  type ActionOutcome,
  AgentSession,
  type CheckpointOptions,
  type ControlMessage,
  type ProposedAction,
  type ProposeOptions,
  type SavedCheckpoint,
  type SessionContext,
  type StopHook,
} from './agent-session.js';
export { type ActionDecision, type DecidedBy, type TimeoutPolicy } from './decision.js';
export { InvalidMessageError } from './errors.js';
export { CheckpointStore, type Snapshot, type SnapshotFile } from './checkpoint-store.js';
export type { StoredControls } from './stored-controls.js';
