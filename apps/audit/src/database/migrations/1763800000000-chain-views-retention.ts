import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A typed view over the raw event log: one event type family, its payload fields as columns. */
function view(name: string, types: string[], columns: string): string {
  const list = types.map((t) => `'${t}'`).join(', ');
  return `CREATE VIEW "${name}" AS
    SELECT e.id, e.type, e.session_id, e.agent_id, e.trace_id, e.causation_id, e.occurred_at, e.chain_seq, e.payload, ${columns}
    FROM audit_event e WHERE e.type IN (${list})`;
}

/**
 * The hash chain per session (chain_seq, prev_hash, hash on each event; the last link per session in
 * audit_chain_head; tombstones for links retention removed), the retention log, and typed views for the
 * queries. The views select the types listed in domain/retention-policy.ts.
 */
export class ChainViewsRetention1763800000000 implements MigrationInterface {
  name = 'ChainViewsRetention1763800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "audit_event" ADD COLUMN "chain_seq" bigint, ADD COLUMN "prev_hash" text, ADD COLUMN "hash" text`);
    await runner.query(`CREATE UNIQUE INDEX "audit_event_chain" ON "audit_event" ("session_id", "chain_seq")`);
    await runner.query(`CREATE INDEX "audit_event_occurred" ON "audit_event" ("occurred_at")`);
    // Which gate requests are still waiting: requests matched with their answers by request id.
    await runner.query(
      `CREATE INDEX "audit_event_gate_request" ON "audit_event" ((payload->>'request_id')) WHERE type IN ('gate.requested', 'gate.responded')`,
    );
    await runner.query(`
      CREATE TABLE "audit_chain_head" (
        "session_id" text PRIMARY KEY,
        "chain_seq" bigint NOT NULL,
        "hash" text NOT NULL,
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE "audit_chain_tombstone" (
        "session_id" text NOT NULL,
        "chain_seq" bigint NOT NULL,
        "event_id" text NOT NULL,
        "type" text NOT NULL,
        "occurred_at" timestamptz NOT NULL,
        "prev_hash" text NOT NULL,
        "hash" text NOT NULL,
        "deleted_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("session_id", "chain_seq")
      )`);
    await runner.query(`
      CREATE TABLE "audit_retention_run" (
        "id" bigserial PRIMARY KEY,
        "table_name" text NOT NULL,
        "cutoff" timestamptz NOT NULL,
        "deleted" integer NOT NULL,
        "ran_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(
      view(
        'audit_decision',
        ['decision.made'],
        `e.payload->>'action_id' AS action_id, e.payload->>'decision' AS decision, e.payload->>'verdict' AS verdict,
         e.payload->>'decided_by' AS decided_by, e.payload->>'operator_id' AS operator_id, e.payload->>'reason' AS reason`,
      ),
    );
    await runner.query(
      view(
        'audit_verdict',
        ['review.verdict'],
        `e.payload->>'action_id' AS action_id, e.payload->>'verdict' AS verdict, e.payload->'risk'->>'severity' AS risk_severity,
         (e.payload->'risk'->>'score')::float8 AS risk_score, (e.payload->>'review_ms')::float8 AS review_ms, e.payload->>'decided_by' AS decided_by`,
      ),
    );
    await runner.query(
      view(
        'audit_pattern',
        ['pattern.detected'],
        `e.payload->>'pattern_id' AS pattern_id, e.payload->>'pattern_type' AS pattern_type, e.payload->>'severity' AS severity,
         (e.payload->>'confidence')::float8 AS confidence, (e.payload->>'shadow')::boolean AS shadow, (e.payload->>'episode')::int AS episode`,
      ),
    );
    await runner.query(
      view(
        'audit_intervention',
        ['intervention.issued', 'intervention.evaluated'],
        `e.payload->>'intervention_id' AS intervention_id, e.payload->>'intervention_type' AS intervention_type,
         e.payload->>'severity' AS severity, (e.payload->>'escalation_level')::int AS escalation_level,
         e.payload->'trigger'->>'kind' AS trigger_kind, e.payload->>'outcome' AS outcome, (e.payload->>'effectiveness')::float8 AS effectiveness`,
      ),
    );
    await runner.query(
      view(
        'audit_hitl_intervention',
        ['hitl.intervention_recorded'],
        `e.payload->>'intervention_id' AS intervention_id, e.payload->>'operator_id' AS operator_id, e.payload->>'command_type' AS command_type,
         e.payload->>'before_state' AS before_state, e.payload->>'after_state' AS after_state,
         (e.payload->>'occurred_at')::timestamptz AS intervened_at, (e.payload->>'reversed_at')::timestamptz AS reversed_at`,
      ),
    );
    await runner.query(
      view(
        'audit_breaker_trip',
        ['breaker.tripped'],
        `e.payload->>'breaker' AS breaker, e.payload->>'reason' AS reason, (e.payload->>'current_value')::float8 AS current_value,
         (e.payload->>'threshold')::float8 AS threshold, e.payload->>'phase' AS phase, e.payload->>'mode' AS mode`,
      ),
    );
    await runner.query(
      view(
        'audit_gate_event',
        ['gate.requested', 'gate.responded', 'gate.escalated', 'hitl.paused', 'hitl.resumed'],
        `e.payload->>'request_id' AS request_id, e.payload->>'gate_id' AS gate_id, (e.payload->>'approved')::boolean AS approved,
         COALESCE(e.payload->>'approver', e.payload->>'operator_id') AS approver, e.payload->>'reason' AS reason,
         e.payload->>'outcome' AS outcome, (e.payload->>'response_ms')::float8 AS response_ms, e.payload->'conditions' AS conditions`,
      ),
    );
    await runner.query(
      view(
        'audit_cost',
        ['breaker.cost_recorded'],
        `e.payload->>'phase' AS phase, e.payload->>'model' AS model, (e.payload->>'prompt_tokens')::bigint AS prompt_tokens,
         (e.payload->>'completion_tokens')::bigint AS completion_tokens, (e.payload->>'cost_usd')::float8 AS cost_usd, e.payload->>'operation' AS operation`,
      ),
    );
    await runner.query(
      view(
        'audit_incident',
        ['incident.created'],
        `e.payload->>'incident_id' AS incident_id, e.payload->>'severity' AS severity, e.payload->>'summary' AS summary`,
      ),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const v of ['audit_incident', 'audit_cost', 'audit_gate_event', 'audit_breaker_trip', 'audit_hitl_intervention', 'audit_intervention', 'audit_pattern', 'audit_verdict', 'audit_decision']) {
      await runner.query(`DROP VIEW "${v}"`);
    }
    await runner.query(`DROP TABLE "audit_retention_run"`);
    await runner.query(`DROP TABLE "audit_chain_tombstone"`);
    await runner.query(`DROP TABLE "audit_chain_head"`);
    await runner.query(`DROP INDEX "audit_event_gate_request"`);
    await runner.query(`DROP INDEX "audit_event_occurred"`);
    await runner.query(`DROP INDEX "audit_event_chain"`);
    await runner.query(`ALTER TABLE "audit_event" DROP COLUMN "hash", DROP COLUMN "prev_hash", DROP COLUMN "chain_seq"`);
  }
}
