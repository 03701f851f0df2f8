import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAuditEvent1763700000000 implements MigrationInterface {
  name = 'CreateAuditEvent1763700000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "audit_event" (
        "id" text PRIMARY KEY,
        "type" text NOT NULL,
        "version" integer NOT NULL,
        "channel" text NOT NULL,
        "session_id" text NOT NULL,
        "agent_id" text NOT NULL,
        "trace_id" text NOT NULL,
        "causation_id" text,
        "occurred_at" timestamptz NOT NULL,
        "recorded_at" timestamptz NOT NULL DEFAULT now(),
        "stream_sequence" bigint,
        "payload" jsonb NOT NULL,
        "control" jsonb
      )`);
    await runner.query(`CREATE INDEX "audit_event_session_time" ON "audit_event" ("session_id", "occurred_at")`);
    await runner.query(`CREATE INDEX "audit_event_trace" ON "audit_event" ("trace_id")`);
    await runner.query(`CREATE INDEX "audit_event_type_time" ON "audit_event" ("type", "occurred_at")`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "audit_event"`);
  }
}
