import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ActionDecision, ActionOutcome, ControlMessage, ProposedAction, WardenClient } from '@warden/sdk';
import { ANSWER_DEFAULTS } from './answer-policy.js';
import { claudeCodeAdapter } from './agents/claude-code/claude-code-adapter.js';
import { turnInTranscriptLines } from './agents/claude-code/transcript-turn.js';
import { cursorAdapter } from './agents/cursor/cursor-adapter.js';
import { answerEvent, type EdgeContext } from './edge-session.js';
import { emptySessionState, type HookSessionState, type SessionStates } from './session-state.js';

/**
 * The edge with an agent that names no tool call and cannot hear text with a prompt (Cursor), against a
 * client that records what the edge sends: no NATS. What each decision becomes runs against the suite
 * in apps/cli/test/agent-hooks.spec.ts.
 */
class RecordingClient {
  readonly agentId = 'cursor';
  readonly proposed: ProposedAction[] = [];
  readonly reported: ActionOutcome[] = [];
  /** Control messages stored for the session, read by the first call. */
  stored: ControlMessage[] = [];
  /** Commands Warden denies. */
  readonly denied = new Set<string>();

  session() {
    return {
      onControl: () => () => undefined,
      propose: async (action: ProposedAction): Promise<ActionDecision> => {
        this.proposed.push(action);
        if (this.denied.has(action.input.command as string)) return { actionId: action.actionId!, allowed: false, verdict: 'block', reason: 'no', reasons: ['no'], decidedBy: 'reviewer', latencyMs: 1 };
        return { actionId: action.actionId!, allowed: true, verdict: 'allow', reason: 'fine', reasons: ['fine'], decidedBy: 'reviewer', latencyMs: 1 };
      },
      report: async (outcome: ActionOutcome) => void this.reported.push(outcome),
      acknowledge: async () => undefined,
      changeGoal: async () => undefined,
    };
  }

  message(type: string, sessionId: string, init: Record<string, unknown>) {
    return { type, session_id: sessionId, ...init };
  }

  async publish(): Promise<void> {}

  async storedControls(_sessionId: string, afterSequence: number) {
    const controls = this.stored.map((message, i) => ({ message, sequence: i + 1 })).filter((c) => c.sequence > afterSequence);
    return { controls, lastSequence: Math.max(afterSequence, this.stored.length) };
  }
}

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

const correction = (id: string, message: string): ControlMessage =>
  ({ id, type: 'control.issued', session_id: 's-1', agent_id: 'cursor', payload: { control_id: id, kind: 'soft_correction', message, requires_ack: false } }) as unknown as ControlMessage;

describe('the edge for an agent that names no call and hears no text with a prompt', () => {
  let client: RecordingClient;
  let states: MemoryStates;
  const context = (): EdgeContext => ({
    adapter: cursorAdapter,
    client: client as unknown as WardenClient,
    states,
    policy: ANSWER_DEFAULTS,
    surroundings: {},
    declaration: {},
    readStoredControls: true,
    controlReadMs: 100,
    deadline: Date.now() + 5_000,
    deadlineMs: 5_000,
    answeredBy: 'gateway',
  });
  // Shapes: https://cursor.com/docs/agent/hooks (beforeShellExecution, afterShellExecution, beforeSubmitPrompt, postToolUse).
  const cursor = (payload: Record<string, unknown>) => cursorAdapter.read({ conversation_id: 's-1', generation_id: 'g-1', workspace_roots: ['/w/app'], ...payload }, {});
  const run = async (payload: Record<string, unknown>) => {
    const event = cursor(payload);
    const outcome = await answerEvent(event, context());
    if (outcome.kind !== 'answer') throw new Error(outcome.why);
    // What the transport runs once the agent has its answer.
    await outcome.settle?.();
    return cursorAdapter.write(event, outcome.answer);
  };

  beforeEach(() => {
    client = new RecordingClient();
    states = new MemoryStates();
  });

  const before = { hook_event_name: 'beforeShellExecution', command: 'npm test', cwd: '/w/app' };
  const after = { hook_event_name: 'afterShellExecution', command: 'npm test', output: 'Tests: 1 failed', duration: 900 };

  it('gives each run of the same command its own id, and reports each outcome under its proposal’s id', async () => {
    // The same payload each time (one generation): what tells the runs apart is the outcome between them.
    for (let i = 0; i < 2; i++) {
      expect(await run(before)).toEqual({ permission: 'allow' });
      await run(after);
    }
    const ids = client.proposed.map((a) => a.actionId);
    expect(ids).toEqual([expect.stringMatching(/^d[0-9a-f]{32}-[0-9a-f]{16}[0-9a-z]+$/), expect.stringMatching(/^d[0-9a-f]{32}-[0-9a-f]{16}[0-9a-z]+$/)]);
    expect(ids[0]).not.toBe(ids[1]);
    expect(ids[0]!.split('-')[0]).toBe(ids[1]!.split('-')[0]);
    expect(client.reported.map((o) => [o.actionId, o.status, o.outputExcerpt])).toEqual([
      [ids[0], 'success', 'Tests: 1 failed'],
      [ids[1], 'success', 'Tests: 1 failed'],
    ]);
  });

  it('proposes a hook delivered again before its call ran under the same id, and the outcome goes to it', async () => {
    expect(await run(before)).toEqual({ permission: 'allow' });
    expect(await run(before)).toEqual({ permission: 'allow' });
    await run(after);
    const ids = client.proposed.map((a) => a.actionId);
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);
    expect(client.reported.map((o) => o.actionId)).toEqual([ids[0]]);
  });

  it('takes the same payload after a deny as a new call: the agent did not run the first', async () => {
    client.denied.add('rm -rf build');
    const remove = { hook_event_name: 'beforeShellExecution', command: 'rm -rf build', cwd: '/w/app' };
    expect(await run(remove)).toMatchObject({ permission: 'deny' });
    expect(await run(remove)).toMatchObject({ permission: 'deny' });
    const [first, second] = client.proposed.map((a) => a.actionId);
    expect(second).not.toBe(first);
    expect(states.states.get('s-1')?.derivedCalls?.[first!.split('-')[0]!]).toEqual({ tag: second!.split('-')[1], closed: true });
  });

  it('keeps a control message that comes with a prompt for the next event that can carry it to the model', async () => {
    client.stored = [correction('c-1', 'Only touch src/date.ts')];
    expect(await run({ hook_event_name: 'beforeSubmitPrompt', prompt: 'Fix the date parser' })).toBeNull();
    expect(states.states.get('s-1')?.unshownContext).toEqual(['Warden correction: Only touch src/date.ts']);
    expect(await run({ hook_event_name: 'beforeShellExecution', command: 'ls', cwd: '/w/app' })).toEqual({ permission: 'allow', agent_message: 'Warden correction: Only touch src/date.ts' });
    expect(states.states.get('s-1')?.unshownContext).toBeUndefined();
    // Shown once.
    expect(await run({ hook_event_name: 'beforeShellExecution', command: 'pwd', cwd: '/w/app' })).toEqual({ permission: 'allow' });
  });

  it('keeps those that come after a shell command (Cursor’s afterShellExecution takes no text) for the end of the turn', async () => {
    await run({ hook_event_name: 'beforeShellExecution', command: 'npm test', cwd: '/w/app' });
    client.stored = [correction('c-2', 'Stop editing the tests')];
    expect(await run({ hook_event_name: 'afterShellExecution', command: 'npm test', output: '' })).toBeNull();
    expect(await run({ hook_event_name: 'stop', status: 'completed', loop_count: 0 })).toEqual({ followup_message: 'Warden correction: Stop editing the tests' });
  });
});

/** The edge as the gateway runs it for Claude Code, reporting to `client`. */
function claudeCodeContext(client: RecordingClient): EdgeContext {
  return {
    adapter: claudeCodeAdapter,
    client: client as unknown as WardenClient,
    states: new MemoryStates(),
    policy: ANSWER_DEFAULTS,
    surroundings: {},
    declaration: {},
    readStoredControls: false,
    controlReadMs: 100,
    deadline: Date.now() + 5_000,
    deadlineMs: 5_000,
    answeredBy: 'gateway',
  };
}

describe('the edge for Claude Code: the response a call came in', () => {
  // Claude Code writes each content block of a response as a line of its own, with the response's id
  // (the shape of github.com/blackgirlbytes/planetfall-seed-signalkit 07/d253ca52d8/4/full.jsonl), and only
  // after the calls' PreToolUse hooks answered (anthropics/claude-code issues 72018, 82413): the outcome says it.
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'warden-turn-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const use = (message: string, id: string) =>
    JSON.stringify({ type: 'assistant', sessionId: 's-1', message: { id: message, role: 'assistant', content: [{ type: 'tool_use', id, name: 'Edit', input: { file_path: '/w/app/src/style.css' } }] } });

  it('reports the outcome of a call with the response it came in, when the transcript has its line', async () => {
    const transcript = join(dir, 's-1.jsonl');
    writeFileSync(transcript, [use('msg_01WUGQt4', 'toolu_a'), use('msg_01WUGQt4', 'toolu_b'), ''].join('\n'));
    const client = new RecordingClient();
    const context = claudeCodeContext(client);
    const failed = (toolUseId: string) =>
      claudeCodeAdapter.read(
        { session_id: 's-1', transcript_path: transcript, cwd: '/w/app', hook_event_name: 'PostToolUseFailure', tool_name: 'Edit', tool_input: { file_path: '/w/app/src/style.css' }, tool_use_id: toolUseId, error: 'File has been modified since read' },
        {},
      );
    for (const id of ['toolu_a', 'toolu_b', 'toolu_c']) expect((await answerEvent(failed(id), context)).kind).toBe('answer');
    // toolu_c has no line yet: no response is said rather than a wrong one.
    expect(client.reported.map((o) => [o.actionId, o.turn])).toEqual([
      ['toolu_a', 'msg_01WUGQt4'],
      ['toolu_b', 'msg_01WUGQt4'],
      ['toolu_c', undefined],
    ]);
  });

  it('finds the line from the end of the transcript, and nothing in lines being written or in results', () => {
    const lines = [use('msg_1', 'toolu_x'), JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_y', content: '"id":"toolu_y"' }] } }), '{"type":"assistant","message":{"id":"msg_2","content":[{"type":"tool_use","id":"toolu_z"'];
    expect(turnInTranscriptLines(lines, 'toolu_x')).toBe('msg_1');
    expect(turnInTranscriptLines(lines, 'toolu_y')).toBeUndefined();
    expect(turnInTranscriptLines(lines, 'toolu_z')).toBeUndefined();
  });
});

describe('the edge for Claude Code: a tool that answers it failed', () => {
  // The shape of clkao/spacedock docs/plans/_evidence/green-opus-4-7-full-suite/cycle5/standing-run1-fo-log.jsonl
  // @ 4b3cf33a: TeamDelete's call returns normally (no is_error, PostToolUse) with {"success":false,"message":…}.
  const after = (id: string, tool: string, input: Record<string, unknown>, response: unknown) =>
    claudeCodeAdapter.read({ session_id: 's-1', cwd: '/w/app', hook_event_name: 'PostToolUse', tool_name: tool, tool_input: input, tool_use_id: id, tool_response: response }, {});

  it('reports the call as an error with the reason it gave; a command that prints such an answer ran', async () => {
    const client = new RecordingClient();
    const edge = claudeCodeContext(client);
    const refusal = '{"success":false,"message":"Cannot cleanup team with 2 active member(s): echo-agent, ensign-001"}';
    await answerEvent(after('toolu_1', 'TeamDelete', {}, refusal), edge);
    await answerEvent(after('toolu_2', 'mcp__tracker__close_issue', { id: 7 }, [{ type: 'text', text: '{"success": false, "error": "issue 7 is locked"}' }]), edge);
    await answerEvent(after('toolu_3', 'Bash', { command: 'curl -s localhost:3000/api/jobs' }, { stdout: refusal, stderr: '', interrupted: false }), edge);
    await answerEvent(after('toolu_4', 'TeamCreate', { team_name: 't' }, '{"success":true,"team_name":"t"}'), edge);
    expect(client.reported.map((o) => [o.actionId, o.status, o.error?.message])).toEqual([
      ['toolu_1', 'error', 'Cannot cleanup team with 2 active member(s): echo-agent, ensign-001'],
      ['toolu_2', 'error', 'issue 7 is locked'],
      ['toolu_3', 'success', undefined],
      ['toolu_4', 'success', undefined],
    ]);
  });
});
