import { Kvm, type KV } from '@nats-io/kv';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import {
  AUTOMATION_LEVEL_BUCKET,
  createMessage,
  derivedMessageId,
  LADDER_RECORD_BUCKET,
  NO_SCOPE,
  parseAutomationLevel,
  publishSubject,
  validateMessage,
  type MessageOf,
  type PayloadOf,
} from '@warden/contracts';
import { describeServiceContract, eventually, startInProcess, type RecordedMessage } from '@warden/testing';
import { LadderAppModule } from '../src/app.module.js';
import { loadLadderConfig } from '../src/config.js';
import type { TrackRecord } from '@warden/ladder';

const encoder = new TextEncoder();
// New agents start at level 0 here, so that ten runs show the first promotion.
const LADDER_ENV = { LADDER_INITIAL_LEVEL: '0' };

describeServiceContract(
  {
    service: 'ladder',
    createModule: (env, logger) => LadderAppModule.forRoot(loadLadderConfig(env), logger),
    prepare: async () => ({ env: LADDER_ENV }),
  },
  (harness) => {
    let sequence = 0;
    const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++sequence}`;
    let records: KV;
    let levels: KV;

    beforeAll(async () => {
      records = await new Kvm(harness.bus.nc).open(LADDER_RECORD_BUCKET);
      levels = await new Kvm(harness.bus.nc).open(AUTOMATION_LEVEL_BUCKET);
    });

    type Sent = 'session.ended' | 'intervention.issued' | 'ladder.command' | 'decision.made';
    const CHANNEL = { 'session.ended': 'session', 'intervention.issued': 'intervention', 'ladder.command': 'ladder_command', 'decision.made': 'decision' } as const;

    /** Publishes a message for any agent as a client would, and resolves once the ladder handled it. */
    async function send<T extends Sent>(
      type: T,
      agentId: string,
      payload: PayloadOf<T>,
      options: { message?: MessageOf<T>; msgId?: string; sessionId?: string } = {},
    ): Promise<MessageOf<T>> {
      const channel = CHANNEL[type];
      const sessionId = options.sessionId ?? (type === 'ladder.command' ? NO_SCOPE : unique('sess'));
      const message = options.message ?? createMessage(type, { agent_id: agentId, session_id: sessionId, payload });
      const before = await harness.processed(channel, type);
      await harness.bus.js.publish(publishSubject(channel, agentId, message.session_id), encoder.encode(JSON.stringify(message)), { msgID: options.msgId ?? message.id });
      await harness.waitProcessed(channel, type, before + 1, 20_000);
      return message;
    }

    type Decided = Pick<PayloadOf<'decision.made'>, 'decision' | 'decided_by'>;
    const ALLOWED: Decided = { decision: 'allow', decided_by: 'reviewer' };
    /** The gate's decision on an action of the session, as the gate publishes it. */
    const decide = (agentId: string, sessionId: string, decided: Decided = ALLOWED) =>
      send('decision.made', agentId, { ...(harness.example('decision.made').payload as PayloadOf<'decision.made'>), action_id: unique('act'), ...decided }, { sessionId });
    /** A run: the gate decides the session's actions, then the agent ends it (with what it says of itself). */
    async function run(agentId: string, payload: PayloadOf<'session.ended'> = { status: 'success' }, decisions: Decided[] = [ALLOWED]): Promise<MessageOf<'session.ended'>> {
      const sessionId = unique('sess');
      for (const decided of decisions) await decide(agentId, sessionId, decided);
      return send('session.ended', agentId, payload, { sessionId });
    }
    const command = (agentId: string, payload: PayloadOf<'ladder.command'>) => send('ladder.command', agentId, payload);
    const intervention = (agentId: string, type: PayloadOf<'intervention.issued'>['intervention_type'], extra: Partial<PayloadOf<'intervention.issued'>> = {}) =>
      send('intervention.issued', agentId, { ...(harness.example('intervention.issued').payload as PayloadOf<'intervention.issued'>), intervention_type: type, ...extra });

    async function recordOf(agentId: string): Promise<TrackRecord | undefined> {
      const entry = await records.get(agentId);
      return entry?.operation === 'PUT' ? (JSON.parse(entry.string()) as TrackRecord) : undefined;
    }

    async function publishedLevel(agentId: string): Promise<number | undefined> {
      const entry = await levels.get(agentId);
      return entry?.operation === 'PUT' ? parseAutomationLevel(entry.value)?.level : undefined;
    }


    /** The ladder event of `type` caused by `cause`, validated against the contracts. */
    async function eventCausedBy<T extends 'ladder.metrics_updated' | 'ladder.level_changed'>(type: T, cause: { id: string }): Promise<MessageOf<T>> {
      const found: RecordedMessage = await harness.recorder.waitFor((m) => m.body.type === type && m.body.causation_id === cause.id, 20_000);
      expect(validateMessage(found.body)).toEqual({ ok: true, message: found.body });
      return found.body as unknown as MessageOf<T>;
    }

    const levelChangesOf = (agentId: string) =>
      harness.recorder.messages.filter((m) => m.body.type === 'ladder.level_changed' && m.body.agent_id === agentId).map((m) => m.body as unknown as MessageOf<'ladder.level_changed'>);

    async function metric(pattern: RegExp): Promise<number> {
      const text = await (await fetch(`${harness.service.url}/metrics`)).text();
      return Number(pattern.exec(text)?.[1] ?? 0);
    }

    describe('track record', () => {
      it('adds a run outcome to the record and publishes ladder.metrics_updated in the run’s session', async () => {
        const agentId = unique('agent-run');
        const ended = await run(agentId, { status: 'success', false_positives: 1 }, [ALLOWED, { decision: 'allow', decided_by: 'operator' }]);
        const event = await eventCausedBy('ladder.metrics_updated', ended);
        expect(event).toMatchObject({
          id: derivedMessageId('ladder.metrics_updated', ended.id),
          agent_id: agentId,
          session_id: ended.session_id,
          trace_id: ended.trace_id,
          payload: { level: 0, metrics: { total_runs: 1, successful_runs: 1, false_positives: 1, missed_critical_bugs: 0 } },
        });
        expect(event.payload.metrics.approval_rate).toBeCloseTo(0.1, 12);
        expect((await recordOf(agentId))?.metrics).toMatchObject({ totalRuns: 1, successfulRuns: 1, falsePositives: 1 });
        expect(await metric(/^warden_ladder_runs_recorded_total\{status="success",[^}]*\} (\d+)$/m)).toBeGreaterThanOrEqual(1);
      });

      it('publishes a new agent’s level to warden_automation_levels for the reviewer', async () => {
        const agentId = unique('agent-new');
        await run(agentId, { status: 'failure' });
        expect(await eventually('the level record', () => levels.get(agentId), (e) => e?.operation === 'PUT')).toBeTruthy();
        expect(parseAutomationLevel((await levels.get(agentId))!.value)).toMatchObject({ agent_id: agentId, level: 0 });
      });

      it('promotes 0 → 1 after ten successful runs, once, and publishes the level', async () => {
        const agentId = unique('agent-climb');
        // One after the other: the tenth must be the run that completes the requirement.
        for (let i = 0; i < 9; i++) await run(agentId);
        expect(levelChangesOf(agentId)).toEqual([]);
        const tenth = await run(agentId);
        const changed = await harness.recorder.waitFor((m) => m.body.type === 'ladder.level_changed' && m.body.agent_id === agentId, 20_000);
        expect(validateMessage(changed.body).ok).toBe(true);
        expect(changed.body.payload).toMatchObject({ from: 0, to: 1, changed_by: 'ladder', metrics: { total_runs: 10, successful_runs: 10 } });
        expect((changed.body.payload as { reason: string }).reason).toBe(
          'Requirements for AI Suggests (level 1) met: 10 runs >= 10, false-positive rate 0 <= 0.5, missed critical bugs 0 <= 5',
        );
        expect(changed.body.causation_id).toBe(tenth.id);
        expect(await eventually('level 1 in warden_automation_levels', () => publishedLevel(agentId), (l) => l === 1)).toBe(1);
        expect(levelChangesOf(agentId)).toHaveLength(1);
        expect(await metric(/^warden_ladder_level_changes_total\{direction="up",cause="requirements_met",[^}]*\} (\d+)$/m)).toBeGreaterThanOrEqual(1);
        await eventually('the agent counted at level 1', () => metric(/^warden_ladder_agents\{level="1",[^}]*\} (\d+)$/m), (n) => n >= 1);
      });

      it('counts a redelivered session.ended once and stores its events once', async () => {
        const agentId = unique('agent-dup');
        const ended = await run(agentId);
        await eventCausedBy('ladder.metrics_updated', ended);
        // The same message again under another Nats-Msg-Id, as a redelivery past JetStream's de-duplication.
        await send('session.ended', agentId, ended.payload, { message: ended, msgId: `${ended.id}-again` });
        expect((await recordOf(agentId))?.metrics.totalRuns).toBe(1);
        const info = await harness.bus.jsm.streams.info('WARDEN_LADDER', { subjects_filter: `warden.ladder.*.${agentId}.${ended.session_id}` });
        expect(Object.values(info.state.subjects ?? {})).toEqual([1]);
        expect(await metric(/^warden_ladder_duplicates_total\{type="session\.ended",[^}]*\} (\d+)$/m)).toBeGreaterThanOrEqual(1);
      });
    });

    describe('what counts: only what Warden saw', () => {
      it('promotes nobody on 1,000 successful, human-approved runs that an agent reports about itself with its own credentials', async () => {
        const agentId = 'agent-2';
        const settings = harness.nats.agent(agentId);
        const agent = await connect({ servers: settings.servers, user: settings.user, pass: settings.password, inboxPrefix: `_INBOX_${agentId}` });
        try {
          const js = jetstream(agent);
          const before = await harness.processed('session', 'session.ended');
          const forged = Array.from({ length: 1000 }, () =>
            createMessage('session.ended', { agent_id: agentId, session_id: unique('forged'), payload: { status: 'success', human_approved: true, false_positives: 0, missed_critical_bugs: 0 } }),
          );
          for (let i = 0; i < forged.length; i += 100) {
            await Promise.all(
              forged.slice(i, i + 100).map((m) => js.publish(publishSubject('session', agentId, m.session_id), encoder.encode(JSON.stringify(m)), { msgID: m.id })),
            );
          }
          // Until the ladder handled all of them, or promoted the agent on the way.
          await eventually(
            'the 1,000 runs handled, or a promotion',
            async () => ({ handled: await harness.processed('session', 'session.ended'), level: (await recordOf(agentId))?.level ?? 0 }),
            ({ handled, level }) => handled >= before + 1000 || level > 0,
            { timeoutMs: 300_000, intervalMs: 200 },
          );
        } finally {
          await agent.close();
        }
        // And until nothing of them is left to redeliver (a write that lost a compare-and-set is retried).
        await eventually(
          'the ladder idle on the session stream',
          async () => {
            const idle: boolean[] = [];
            for await (const c of harness.bus.jsm.consumers.list('WARDEN_SESSION')) if (c.name.startsWith('ladder')) idle.push(c.num_pending === 0 && c.num_ack_pending === 0);
            return idle.length > 0 && idle.every(Boolean);
          },
          { timeoutMs: 120_000, intervalMs: 200 },
        );
        const record = await recordOf(agentId);
        expect(record).toMatchObject({ level: 0, metrics: { totalRuns: 0, successfulRuns: 0, approvalRate: 0 } });
        expect(levelChangesOf(agentId)).toEqual([]);
        expect(await publishedLevel(agentId)).toBe(0);
      }, 360_000);

      it('takes a run\'s approval from the gate: an operator\'s deny makes it an unapproved failure, whatever the agent says', async () => {
        const agentId = unique('agent-denied');
        const ended = await run(agentId, { status: 'success', human_approved: true }, [ALLOWED, { decision: 'deny', decided_by: 'operator' }]);
        const event = await eventCausedBy('ladder.metrics_updated', ended);
        expect(event.payload.metrics).toMatchObject({ total_runs: 1, successful_runs: 0, approval_rate: 0 });
      });

      it('believes a failure the agent reports, and counts a run whose end arrived before its decision when the decision arrives', async () => {
        const agentId = unique('agent-late');
        const failed = await run(agentId, { status: 'failure' });
        expect((await eventCausedBy('ladder.metrics_updated', failed)).payload.metrics).toMatchObject({ total_runs: 1, successful_runs: 0 });

        const sessionId = unique('sess');
        await send('session.ended', agentId, { status: 'success' }, { sessionId });
        expect((await recordOf(agentId))?.metrics.totalRuns).toBe(1);
        const decision = await decide(agentId, sessionId);
        expect((await eventCausedBy('ladder.metrics_updated', decision)).payload.metrics).toMatchObject({ total_runs: 2, successful_runs: 1 });
        // Later decisions in the ended session count no second run.
        await decide(agentId, sessionId);
        expect((await recordOf(agentId))?.metrics.totalRuns).toBe(2);
      });
    });

    describe('demotion', () => {
      it('demotes one level at once on an emergency stop, and not on a lesser intervention', async () => {
        const agentId = unique('agent-stop');
        const set = await command(agentId, { command: 'set_level', level: 2, operator_id: 'operator-x', reason: 'Trusted tooling' });
        expect((await eventCausedBy('ladder.level_changed', set)).payload).toMatchObject({
          from: 0,
          to: 2,
          changed_by: 'operator-x',
          reason: 'Set to AI Acts (level 2) by operator-x: Trusted tooling',
        });
        await intervention(agentId, 'soft_correction');
        expect((await recordOf(agentId))?.level).toBe(2);
        const stop = await intervention(agentId, 'emergency_stop');
        const demoted = await eventCausedBy('ladder.level_changed', stop);
        expect(demoted).toMatchObject({ session_id: stop.session_id, payload: { from: 2, to: 1, changed_by: 'ladder' } });
        expect(demoted.payload.reason).toMatch(/^Emergency stop \(intervention int-1 after pattern repetitive_errors\): demoted from AI Acts \(level 2\) to AI Suggests \(level 1\)$/);
        expect(await eventually('level 1 in warden_automation_levels', () => publishedLevel(agentId), (l) => l === 1)).toBe(1);
        expect(await recordOf(agentId)).toMatchObject({ level: 1, emergencyStops: 1 });
      });

      it('leaves the track record alone for an emergency stop in a replayed session', async () => {
        const agentId = unique('agent-replay');
        await command(agentId, { command: 'set_level', level: 2, operator_id: 'operator-x' });
        await eventually('level 2 in warden_automation_levels', () => publishedLevel(agentId), (l) => l === 2);
        const before = await harness.processed('intervention', 'intervention.issued');
        await intervention(agentId, 'emergency_stop', { replay: true });
        await eventually('the replayed stop processed', () => harness.processed('intervention', 'intervention.issued'), (n) => n > before);
        expect(await recordOf(agentId)).toMatchObject({ level: 2, emergencyStops: 0 });
        // A stop in the agent's real work still demotes.
        const stop = await intervention(agentId, 'emergency_stop');
        await eventCausedBy('ladder.level_changed', stop);
        expect(await recordOf(agentId)).toMatchObject({ level: 1, emergencyStops: 1 });
      });

      it('demotes at once for a run with a missed critical bug', async () => {
        const agentId = unique('agent-bug');
        await command(agentId, { command: 'set_level', level: 1, operator_id: 'operator-x' });
        const ended = await run(agentId, { status: 'success', missed_critical_bugs: 1 });
        expect((await eventCausedBy('ladder.level_changed', ended)).payload).toMatchObject({
          from: 1,
          to: 0,
          reason: 'Missed critical bug in run: demoted from AI Suggests (level 1) to Manual (level 0)',
        });
        expect((await eventCausedBy('ladder.metrics_updated', ended)).payload).toMatchObject({ level: 0, metrics: { missed_critical_bugs: 1 } });
      });
    });

    describe('operator commands', () => {
      it('pins a level that neither an emergency stop nor a missed bug moves, refuses set_level meanwhile, and unpins', async () => {
        const agentId = unique('agent-pin');
        const pin = await command(agentId, { command: 'pin', level: 3, operator_id: 'operator-x', reason: 'Release week' });
        expect((await eventCausedBy('ladder.level_changed', pin)).payload).toMatchObject({
          from: 0,
          to: 3,
          changed_by: 'operator-x',
          reason: 'Pinned by operator-x at AI Autonomous (level 3): Release week',
        });
        expect(await eventually('level 3 in warden_automation_levels', () => publishedLevel(agentId), (l) => l === 3)).toBe(3);

        await intervention(agentId, 'emergency_stop');
        const bad = await run(agentId, { status: 'failure', missed_critical_bugs: 2 });
        expect((await eventCausedBy('ladder.metrics_updated', bad)).payload).toMatchObject({ level: 3, metrics: { missed_critical_bugs: 2 } });
        expect(await recordOf(agentId)).toMatchObject({ level: 3, pin: { by: 'operator-x', reason: 'Release week' }, emergencyStops: 1 });

        const refused = createMessage('ladder.command', { agent_id: agentId, session_id: NO_SCOPE, payload: { command: 'set_level', level: 4, operator_id: 'operator-y' } });
        await harness.bus.js.publish(publishSubject('ladder_command', agentId, NO_SCOPE), encoder.encode(JSON.stringify(refused)), { msgID: refused.id });
        expect((await harness.deadLetterFor(refused.id, 20_000)).body.payload).toMatchObject({
          service: 'ladder',
          reason: 'rejected',
          detail: 'pinned at AI Autonomous (level 3) by operator-x: unpin first, or pin another level',
        });

        const unpin = await command(agentId, { command: 'unpin', operator_id: 'operator-y' });
        expect((await eventCausedBy('ladder.level_changed', unpin)).payload).toMatchObject({ from: 3, to: 3, changed_by: 'operator-y' });
        expect((await recordOf(agentId))?.pin).toBeNull();
        expect(levelChangesOf(agentId).map((c) => [c.payload.from, c.payload.to])).toEqual([
          [0, 3],
          [3, 3],
        ]);
      });

      it('rejects a command that lacks its level, with the reason, counts it, and keeps serving', async () => {
        const agentId = unique('agent-bad-cmd');
        const before = await metric(/^warden_ladder_commands_rejected_total\{command="pin",reason="missing_level",[^}]*\} (\d+)$/m);
        const pin = createMessage('ladder.command', { agent_id: agentId, session_id: NO_SCOPE, payload: { command: 'pin', operator_id: 'operator-x' } });
        await harness.bus.js.publish(publishSubject('ladder_command', agentId, NO_SCOPE), encoder.encode(JSON.stringify(pin)), { msgID: pin.id });
        expect((await harness.deadLetterFor(pin.id, 20_000)).body.payload).toMatchObject({ service: 'ladder', reason: 'rejected', detail: 'pin needs the level to hold' });
        expect(await metric(/^warden_ladder_commands_rejected_total\{command="pin",reason="missing_level",[^}]*\} (\d+)$/m)).toBe(before + 1);
        expect(await recordOf(agentId)).toBeUndefined();
        const set = await command(agentId, { command: 'set_level', level: 2, operator_id: 'operator-x' });
        expect((await eventCausedBy('ladder.level_changed', set)).payload).toMatchObject({ from: 0, to: 2 });
      });
    });

    describe('restart', () => {
      it('keeps every track record: a restarted ladder carries on counting', async () => {
        const agentId = unique('agent-restart');
        await run(agentId);
        await run(agentId);
        expect((await recordOf(agentId))?.metrics.totalRuns).toBe(2);

        await harness.service.close();
        const env: NodeJS.ProcessEnv = {
          NATS_URL: harness.nats.url,
          NATS_USER: harness.nats.service.user,
          NATS_PASSWORD: harness.nats.service.password,
          WARDEN_PARTITIONS: String(harness.nats.partitions),
          WARDEN_HEARTBEAT_MS: '200',
          WARDEN_LEASE_MS: '1000',
          HTTP_PORT: '0',
          ...LADDER_ENV,
        };
        harness.service = await startInProcess('ladder', (logger) => LadderAppModule.forRoot(loadLadderConfig(env), logger));

        const third = await run(agentId, { status: 'success' });
        expect((await eventCausedBy('ladder.metrics_updated', third)).payload.metrics).toMatchObject({ total_runs: 3, successful_runs: 3 });
      }, 60_000);
    });
  },
);
