import { Kvm } from '@nats-io/kv';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BREAKER_STATE_BUCKET, breakerStateKey, createMessage, parseBreakerState, publishSubject } from '@warden/contracts';
import { ServiceProcess } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import { eventually } from '@warden/testing';
import type { ActionDecision, AgentSession, WardenClient } from '@warden/sdk';
import { DecisionPath, FAST_LEASES, PARTITIONS } from './path-fixture.js';

const configDir = mkdtempSync(join(tmpdir(), 'warden-breaker-scenario-'));
const configPath = join(configDir, 'breakers.yaml');
// The seed's price of Opus 4.6 (since lowered), which the figures below are written in.
writeFileSync(configPath, 'breakers:\n  cost:\n    pricing:\n      claude-opus-4-6: { input: 0.015, output: 0.075 }\n    budgets:\n      per_run: 5\n');
// A policy that reads the session's spend (published by the breaker) and the deployment's cluster.
const policyPath = join(configDir, 'reviewer.yaml');
writeFileSync(
  policyPath,
  [
    'step_reviewer:',
    '  deployment: { environment: production, cluster: eu-prod-2 }',
    '  rules:',
    '    custom:',
    '      - name: no_helm_once_costly',
    '        when: session.spend_usd > 2.0 && env.cluster == "eu-prod-2" && action.commands.exists(c, c.program == "helm")',
    '        verdict: block',
    '        reason: This session has cost more than $2 on eu-prod-2; helm is for a person now.',
    '',
  ].join('\n'),
);

/**
 * The budget path end to end, every service a real process on a real nats-server: an agent's model
 * calls pass its run budget, the breaker opens, the reviewer blocks the next action with the breaker's
 * reason and suggestion; the breaker dies and comes back; an operator's reset lets the agent go on.
 */
describe('a session that spends past its run budget', () => {
  let path: DecisionPath;
  let breaker: ServiceProcess;
  let operator: BusConnection;
  let observer: BusConnection;
  let client: WardenClient | undefined;

  const startBreaker = () =>
    ServiceProcess.start({ app: 'breaker', nats: path.nats.service, partitions: PARTITIONS, env: { ...FAST_LEASES, BREAKER_CONFIG: configPath } });

  beforeAll(async () => {
    path = await DecisionPath.start(1, { REVIEWER_CONFIG: policyPath });
    breaker = await startBreaker();
    operator = await BusConnection.open(path.nats.operator);
    observer = await BusConnection.open(path.nats.service);
  });

  afterAll(async () => {
    await client?.close();
    await operator?.close();
    await observer?.close();
    await breaker?.stop();
    await path?.stop();
    rmSync(configDir, { recursive: true, force: true });
  });

  let counter = 0;
  /**
   * Proposes ordinary edits until one gets the wanted answer (the breaker's state reaches the reviewer
   * asynchronously). An open breaker holds back what changes something; reads would pass.
   */
  async function proposeUntil(session: AgentSession, allowed: boolean): Promise<ActionDecision> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const decision = await session.propose({ actionId: `edit-${++counter}`, tool: 'Edit', input: { file_path: '/work/app/src/date.ts', old_string: 'a', new_string: 'b' } });
      if (decision.allowed === allowed) return decision;
      if (Date.now() > deadline) throw new Error(`no ${allowed ? 'allowed' : 'denied'} decision in time; last: ${JSON.stringify(decision)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function breakerState(sessionId: string) {
    const entry = await (await new Kvm(observer.nc).open(BREAKER_STATE_BUCKET)).get(breakerStateKey('agent-1', sessionId));
    return entry && entry.operation === 'PUT' ? parseBreakerState(entry.value) : null;
  }

  it('is blocked by the reviewer with the breaker\'s reason and suggestion, and a reset lets it through', async () => {
    client = await path.agent();
    const session = client.session(`budget-${Date.now().toString(36)}`);
    await session.start({ context: { goal: 'Fix the date parser', cwd: '/work/app' }, phase: 'implementation' });

    const first = await session.propose({ actionId: 'read-1', tool: 'Read', input: { file_path: '/work/app/src/date.ts' } });
    expect(first).toMatchObject({ allowed: true, decidedBy: 'reviewer' });
    // One model call of 100k prompt and 100k completion tokens on claude-opus-4-6: $9.00, past the $5.00 run budget.
    await session.report({ actionId: 'read-1', status: 'success', model: 'claude-opus-4-6', tokens: { prompt: 100_000, completion: 100_000 } });

    const blocked = await proposeUntil(session, false);
    expect(blocked).toMatchObject({ decidedBy: 'reviewer', verdict: 'block' });
    expect(blocked.reason).toBe(
      "The cost breaker of this session is open: RUN_BUDGET_EXCEEDED. Run spent $9.00 of its $5.00 budget. Further changes are held until an operator raises the budget or resets the cost breaker (Reset cost breaker on the session's page in the console, or `warden breaker reset <agent> <session> --breaker cost`).",
    );

    // The breaker's state outlives the breaker: killed and restarted, it still knows the session.
    await breaker.kill();
    breaker = await startBreaker();
    expect((await breakerState(session.sessionId))?.state).toBe('open');
    expect((await session.propose({ actionId: 'still-blocked', tool: 'Write', input: { file_path: '/work/app/a.ts', content: 'x' } })).allowed).toBe(false);
    // Its way out stays open: it may still read and report.
    expect((await session.propose({ actionId: 'may-read', tool: 'Read', input: { file_path: '/work/app/a.ts' } })).allowed).toBe(true);

    const reset = createMessage('breaker.command', {
      agent_id: 'agent-1',
      session_id: session.sessionId,
      payload: { command: 'reset', breaker: 'cost', operator_id: 'operator-xander', reason: 'budget raised for this task' },
    });
    // What the reset changed says whether the restarted breaker knew the session: a fresh one would find nothing open.
    const applied = observer.nc.subscribe(`warden.breaker.*.agent-1.${session.sessionId}`);
    const confirmation = (async () => {
      for await (const m of applied) {
        const body = m.json<{ type: string; payload: { command_message_id?: string; changed?: string[] } }>();
        if (body.type === 'breaker.command_applied' && body.payload.command_message_id === reset.id) return body.payload;
      }
      return undefined;
    })();
    await observer.nc.flush();
    await operator.js.publish(publishSubject('breaker_command', 'agent-1', session.sessionId), JSON.stringify(reset), { msgID: reset.id });
    expect(await confirmation).toMatchObject({ changed: ['cost'] });
    applied.unsubscribe();

    const through = await proposeUntil(session, true);
    expect(through).toMatchObject({ decidedBy: 'reviewer', verdict: 'allow' });
    expect((await breakerState(session.sessionId))?.breakers.find((b) => b.breaker === 'cost')).toMatchObject({ state: 'closed' });
  });

  it("gives a policy the session's spend as the breaker publishes it: the same helm command is blocked once the run cost more than $2", async () => {
    client ??= await path.agent();
    const session = client.session(`spend-${Date.now().toString(36)}`);
    await session.start({ context: { goal: 'Upgrade the shop chart', cwd: '/work/app' }, phase: 'implementation' });
    const helm = (actionId: string) => session.propose({ actionId, tool: 'Bash', input: { command: 'helm upgrade shop charts/shop' } });

    const early = await helm('helm-1');
    expect(early.reason ?? '').not.toContain('no_helm_once_costly');
    expect(early.verdict).not.toBe('block');
    // 50k prompt and 30k completion tokens on claude-opus-4-6: $0.75 + $2.25 = $3.00, under the $5.00 budget.
    await session.report({ actionId: 'helm-1', status: 'success', model: 'claude-opus-4-6', tokens: { prompt: 50_000, completion: 30_000 } });

    const state = await eventually("the breaker's published state to carry the session's spend", () => breakerState(session.sessionId), (record) => record?.spend_usd === 3, { intervalMs: 100 });
    expect(state).toMatchObject({ state: 'closed', spend_usd: 3 });
    // The reviewer reads the state from its watch of the bucket: it may be a moment behind the read above.
    let n = 1;
    const later = await eventually('the reviewer to block helm on the spend', () => helm(`helm-${++n}`), (decision) => decision.verdict === 'block', { intervalMs: 100 });
    expect(later).toMatchObject({ decidedBy: 'reviewer', verdict: 'block', allowed: false });
    expect(later.reason).toContain('This session has cost more than $2 on eu-prod-2');
  });
});
