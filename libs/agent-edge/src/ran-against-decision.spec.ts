import { createMessage, validateMessage, type DecisionRecord, type MessageOf } from '@warden/contracts';
import type { WardenClient } from '@warden/sdk';
import { claudeCodeAdapter } from './agents/claude-code/claude-code-adapter.js';
import type { EdgeEvent } from './edge-event.js';
import { checkRanAgainstDecision, noteUnrecordedAnswer } from './ran-against-decision.js';
import { emptySessionState, type HookSessionState, type SessionStates } from './session-state.js';

/** Session states in memory, one task at a time as the real ones. */
class MemoryStates implements SessionStates {
  readonly states = new Map<string, HookSessionState>();
  async read(id: string) {
    return structuredClone(this.states.get(id) ?? emptySessionState());
  }
  async update<T>(id: string, _waitMs: number, task: (state: HookSessionState) => Promise<T>): Promise<T> {
    const state = await this.read(id);
    const result = await task(state);
    this.states.set(id, state);
    return result;
  }
  async later(id: string, change: (state: HookSessionState) => void): Promise<void> {
    await this.update(id, 0, async (state) => change(state));
  }
}

/** The client's side the check uses: Warden's stored decisions (a direct get of the agent's own records), and publishing. */
function client(records: Record<string, DecisionRecord>) {
  const published: MessageOf<'action.ran_against_decision'>[] = [];
  const stub = {
    agentId: 'claude-code',
    storedDecision: async (_session: string, actionId: string) => records[actionId] ?? null,
    message: (type: 'action.ran_against_decision', sessionId: string, init: { id: string; payload: MessageOf<'action.ran_against_decision'>['payload'] }) =>
      createMessage(type, { ...init, session_id: sessionId, agent_id: 'claude-code' }),
    publish: async (message: MessageOf<'action.ran_against_decision'>) => {
      expect(validateMessage(message)).toMatchObject({ ok: true });
      published.push(message);
    },
  };
  return { client: stub as unknown as WardenClient, published };
}

const decided = (actionId: string, decision: 'allow' | 'deny'): DecisionRecord => ({
  action_digest: 'x',
  decision: createMessage('decision.made', {
    session_id: 's1',
    agent_id: 'claude-code',
    payload: { action_id: actionId, decision, verdict: decision === 'deny' ? 'block' : 'allow', reason: decision === 'deny' ? 'Recursive deletion of the project' : 'No concerns', reasons: [], decided_by: 'reviewer' },
  }),
});

const ran = (id: string, subagent?: { id: string; type: string }): Extract<EdgeEvent, { type: 'after_tool' }> => ({
  type: 'after_tool',
  session: { id: 's1', cwd: '/work/app', ...(subagent ? { subagent } : {}) },
  call: { id, tool: 'Bash', input: { command: 'rm -rf src' } },
  result: { ok: true, output: '' },
});

describe('an outcome held against what Warden decided', () => {
  const check = (event: ReturnType<typeof ran>, states: SessionStates, stub: WardenClient) => checkRanAgainstDecision(event, { client: stub, states, adapter: claudeCodeAdapter, waitMs: 500 });

  it('is nothing when Warden allowed the call', async () => {
    const { client: stub, published } = client({ toolu_ok: decided('toolu_ok', 'allow') });
    expect(await check(ran('toolu_ok'), new MemoryStates(), stub)).toEqual({ context: [] });
    expect(published).toEqual([]);
  });

  it('is an incident when Warden denied the call, with its reason, and the model is told', async () => {
    const { client: stub, published } = client({ toolu_no: decided('toolu_no', 'deny') });
    const guidance = await check(ran('toolu_no', { id: 'agent-def456', type: 'Explore' }), new MemoryStates(), stub);
    expect(published.map((m) => m.payload)).toEqual([
      {
        action_id: 'toolu_no',
        tool: 'Bash',
        input: { command: 'rm -rf src' },
        warden_decision: 'denied',
        reason: 'Recursive deletion of the project',
        decided_by: 'reviewer',
        decision_message_id: expect.any(String),
        status: 'success',
        reported_by: 'claude-code after-tool hook',
        subagent: { id: 'agent-def456', type: 'Explore' },
      },
    ]);
    expect(guidance.context[0]).toMatch(/^Warden: Bash \(toolu_no\) ran although Warden denied it \(Recursive deletion of the project\)\. This is reported to the operator as an incident/);
  });

  it.each([
    ['stopped', 'stopped'],
    ['held', 'held'],
  ] as const)('is an incident when the edge denied the call because the session was %s', async (answer, decision) => {
    const states = new MemoryStates();
    await noteUnrecordedAnswer(states, 's1', 'toolu_x', answer);
    const { client: stub, published } = client({});
    await check(ran('toolu_x'), states, stub);
    expect(published.map((m) => m.payload.warden_decision)).toEqual([decision]);
  });

  it('is nothing for a fail-open tool Warden could not decide on', async () => {
    const states = new MemoryStates();
    await noteUnrecordedAnswer(states, 's1', 'toolu_open', 'fail_open');
    const { client: stub, published } = client({});
    await check(ran('toolu_open'), states, stub);
    expect(published).toEqual([]);
  });

  it('is an incident when Warden never saw the call proposed', async () => {
    const { client: stub, published } = client({});
    await check(ran('toolu_unseen'), new MemoryStates(), stub);
    expect(published.map((m) => [m.payload.warden_decision, m.payload.reason])).toEqual([['never_proposed', 'no hook proposed this tool call to Warden before it ran']]);
  });

  it('claims nothing when Warden\'s record cannot be read', async () => {
    const { client: stub, published } = client({});
    (stub as unknown as { storedDecision: () => Promise<never> }).storedDecision = () => Promise.reject(new Error('timeout'));
    expect(await check(ran('toolu_unknown'), new MemoryStates(), stub)).toEqual({ context: [] });
    expect(published).toEqual([]);
  });
});
