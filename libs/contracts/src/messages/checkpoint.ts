import Type from 'typebox';
import { defineMessage } from '../envelope.js';
import { SubjectToken } from '../vocabulary.js';

/**
 * Each agent keeps its checkpoints' file snapshots in its own JetStream object store bucket, so that
 * the server's permissions can keep one agent away from another's files.
 */
export function checkpointBucket(agentId: string): string {
  return `warden_checkpoints_${agentId}`;
}

/** The object holding a checkpoint's snapshot in the agent's bucket. */
export function checkpointObjectName(sessionId: string, checkpointId: string): string {
  return `${sessionId}/${checkpointId}`;
}

export const CheckpointSaved = defineMessage({
  type: 'checkpoint.saved',
  version: 1,
  channel: 'checkpoint',
  summary: 'The agent saved a checkpoint it can be rolled back to.',
  payload: Type.Object({
    checkpoint_id: SubjectToken('Checkpoint id.'),
    label: Type.Optional(Type.String({ maxLength: 256 })),
    object_store: Type.Optional(
      Type.Object({
        bucket: Type.String({ maxLength: 128 }),
        key: Type.String({ maxLength: 512 }),
      }, { description: 'Where the file snapshot lives in the JetStream object store.' }),
    ),
    files: Type.Array(
      Type.Object({
        path: Type.String({ maxLength: 1024 }),
        sha256: Type.Optional(Type.String({ pattern: '^[a-f0-9]{64}$' })),
        deleted: Type.Optional(Type.Boolean({ description: 'The file did not exist at the checkpoint.' })),
      }),
      { maxItems: 10000 },
    ),
    conversation_position: Type.Optional(Type.Integer({ minimum: 0 })),
    last_action_id: Type.Optional(Type.String({ maxLength: 128 })),
  }),
});
