import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One message of the suite as it was published, with secrets redacted. Keyed by message id. */
@Entity({ name: 'audit_event' })
@Index('audit_event_session_time', ['sessionId', 'occurredAt'])
@Index('audit_event_trace', ['traceId'])
@Index('audit_event_type_time', ['type', 'occurredAt'])
export class AuditEvent {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'integer' })
  version!: number;

  @Column({ type: 'text' })
  channel!: string;

  @Column({ name: 'session_id', type: 'text' })
  sessionId!: string;

  @Column({ name: 'agent_id', type: 'text' })
  agentId!: string;

  @Column({ name: 'trace_id', type: 'text' })
  traceId!: string;

  @Column({ name: 'causation_id', type: 'text', nullable: true })
  causationId!: string | null;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  @Column({ name: 'recorded_at', type: 'timestamptz', default: () => 'now()' })
  recordedAt!: Date;

  @Column({ name: 'stream_sequence', type: 'bigint', nullable: true })
  streamSequence!: string | null;

  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Column({ type: 'jsonb', nullable: true })
  control!: Record<string, unknown> | null;

  /** Position in the session's hash chain (1 for its first event). */
  @Column({ name: 'chain_seq', type: 'bigint', nullable: true })
  chainSeq!: string | null;

  @Column({ name: 'prev_hash', type: 'text', nullable: true })
  prevHash!: string | null;

  /** sha256 of the previous link's hash and this event's content (domain/event-hash.ts). */
  @Column({ type: 'text', nullable: true })
  hash!: string | null;
}
