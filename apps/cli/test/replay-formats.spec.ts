import { join } from 'node:path';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { parseClaudeCodeTranscript } from '../src/replay/formats/claude-code-transcript.js';
import { parseSweAgentTrajectory } from '../src/replay/formats/swe-agent-traj.js';
import { parseWardenJsonl } from '../src/replay/formats/warden-jsonl.js';
import { detectFormat, readRecording } from '../src/replay/read-recording.js';
import { RecordingError } from '../src/replay/recorded-session.js';

const SAMPLES = join(WORKSPACE_ROOT, 'examples/sessions');

/** Reading recordings into the session `warden replay` plays: no suite needed. */
describe('recorded session formats', () => {
  it('detects each sample’s format from its content', () => {
    expect(readRecording(join(SAMPLES, '01-fix-date-parser.warden.jsonl')).format).toBe('warden');
    expect(readRecording(join(SAMPLES, '02-claude-code-date-fix.jsonl')).format).toBe('claude-code');
    expect(readRecording(join(SAMPLES, '03-swe-agent-bulk-update.traj')).format).toBe('swe-agent');
    expect(detectFormat('{"trajectory": []}')).toBe('swe-agent');
    expect(() => detectFormat('hello')).toThrow(/^not a recording Warden reads: neither JSON, JSON Lines nor an Aider chat history/);
  });

  it('reads a Claude Code transcript: tool calls once each, results, durations, tokens once per model call', () => {
    const line = (o: Record<string, unknown>) => JSON.stringify({ cwd: '/w', sessionId: 's-1', ...o });
    const assistant = line({
      type: 'assistant',
      timestamp: '2026-11-20T10:00:00.000Z',
      message: {
        id: 'msg_1',
        role: 'assistant',
        model: 'claude-opus-4-1',
        usage: { input_tokens: 10, cache_read_input_tokens: 90, output_tokens: 7 },
        content: [
          { type: 'text', text: 'Two reads.' },
          { type: 'tool_use', id: 'toolu_A', name: 'Read', input: { file_path: '/w/a' } },
          { type: 'tool_use', id: 'toolu_B', name: 'Write', input: { file_path: '/w/b', content: 'x' } },
        ],
      },
    });
    const results = line({
      type: 'user',
      timestamp: '2026-11-20T10:00:02.500Z',
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_A', content: [{ type: 'text', text: 'contents' }] },
          { type: 'tool_result', tool_use_id: 'toolu_B', is_error: true, content: 'EACCES: permission denied' },
        ],
      },
    });
    const prompt = line({ type: 'user', message: { role: 'user', content: 'Write b from a' } });
    // A resumed session repeats the assistant message and its results.
    const session = parseClaudeCodeTranscript([prompt, assistant, results, assistant, results].join('\n'));
    expect(session).toEqual({
      format: 'claude-code',
      sessionId: 's-1',
      declaration: { context: { cwd: '/w', expected_paths: ['/w/**'], goal: 'Write b from a' }, agent_kind: 'claude-code' },
      actions: [
        {
          actionId: 'toolu_A',
          tool: 'Read',
          input: { file_path: '/w/a' },
          kind: 'tool_use',
          // Both calls came in one response (Claude Code writes each on a line of its own, with the response's id).
          turn: 'msg_1',
          at: '2026-11-20T10:00:00.000Z',
          outcome: { status: 'success', output: 'contents', durationMs: 2500, tokens: { prompt: 10, completion: 7, cache_read: 90 }, model: 'claude-opus-4-1', at: '2026-11-20T10:00:02.500Z' },
        },
        {
          actionId: 'toolu_B',
          tool: 'Write',
          input: { file_path: '/w/b', content: 'x' },
          kind: 'tool_use',
          turn: 'msg_1',
          at: '2026-11-20T10:00:00.000Z',
          outcome: { status: 'error', error: { message: 'EACCES: permission denied' }, durationMs: 2500, filesTouched: ['/w/b'], at: '2026-11-20T10:00:02.500Z' },
        },
      ],
    });
  });

  it('reads a tool that answered it failed as an error, as the edge reports it live; a command that printed such an answer ran', () => {
    // The shape of clkao/spacedock docs/plans/_evidence/green-opus-4-7-full-suite/cycle5/standing-run1-fo-log.jsonl @ 4b3cf33a.
    const line = (o: Record<string, unknown>) => JSON.stringify({ cwd: '/w', sessionId: 's-1', ...o });
    const refusal = '{"success":false,"message":"Cannot cleanup team with 2 active member(s): echo-agent"}';
    const calls = line({
      type: 'assistant',
      message: { id: 'msg_1', role: 'assistant', content: [
        { type: 'tool_use', id: 'toolu_T', name: 'TeamDelete', input: {} },
        { type: 'tool_use', id: 'toolu_B', name: 'Bash', input: { command: 'cat reply.json' } },
      ] },
    });
    const results = line({
      type: 'user',
      message: { role: 'user', content: [
        { type: 'tool_result', tool_use_id: 'toolu_T', content: refusal },
        { type: 'tool_result', tool_use_id: 'toolu_B', content: refusal },
      ] },
    });
    const { actions } = parseClaudeCodeTranscript([calls, results].join('\n'));
    expect(actions.map((a) => [a.actionId, a.outcome?.status, a.outcome?.error?.message])).toEqual([
      ['toolu_T', 'error', 'Cannot cleanup team with 2 active member(s): echo-agent'],
      ['toolu_B', 'success', undefined],
    ]);
  });

  it("takes a turn's last words as its Stop hook would send them: the reply after its last call, before the user's next request", () => {
    const line = (o: Record<string, unknown>) => JSON.stringify({ cwd: '/w', sessionId: 's-2', ...o });
    const say = (id: string, content: unknown[]) => line({ type: 'assistant', message: { id, role: 'assistant', content } });
    const ask = (text: string) => line({ type: 'user', message: { role: 'user', content: text } });
    const result = (id: string) => line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] } });
    const transcript = [
      ask('Fix the cart total'),
      say('m1', [{ type: 'text', text: 'Let me run the tests.' }, { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test' } }]),
      result('toolu_1'),
      say('m2', [{ type: 'text', text: 'One test fails; fixing it.' }]),
      say('m3', [{ type: 'tool_use', id: 'toolu_2', name: 'Edit', input: { file_path: '/w/cart.ts', old_string: 'a', new_string: 'b' } }]),
      result('toolu_2'),
      say('m4', [{ type: 'text', text: 'Fixed the total.' }]),
      say('m5', [{ type: 'text', text: 'All tests pass.' }]),
      ask('Thanks. Now the README.'),
      say('m6', [{ type: 'tool_use', id: 'toolu_3', name: 'Read', input: { file_path: '/w/README.md' } }]),
      result('toolu_3'),
      say('m7', [{ type: 'text', text: 'README read; nothing to change.' }]),
    ].join('\n');
    const actions = parseClaudeCodeTranscript(transcript).actions;
    expect(actions.map((a) => [a.actionId, a.turnEnd])).toEqual([
      ['toolu_1', undefined],
      ['toolu_2', 'Fixed the total.\nAll tests pass.'],
      ['toolu_3', 'README read; nothing to change.'],
    ]);
  });

  it('reads a call Claude Code cancelled for a failing sibling as one that never ran to its end: no outcome', () => {
    // The cancellation texts of anthropics/claude-code issues 22264 and 64346.
    const line = (o: Record<string, unknown>) => JSON.stringify({ cwd: '/w', sessionId: 's-2', ...o });
    const calls = line({
      type: 'assistant',
      timestamp: '2026-11-20T10:00:00.000Z',
      message: {
        id: 'msg_2',
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_C', name: 'WebFetch', input: { url: 'https://docs.example/a', prompt: 'Summarise' } },
          { type: 'tool_use', id: 'toolu_D', name: 'WebFetch', input: { url: 'https://docs.example/b', prompt: 'Summarise' } },
          { type: 'tool_use', id: 'toolu_E', name: 'Bash', input: { command: 'pwd' } },
        ],
      },
    });
    const results = line({
      type: 'user',
      timestamp: '2026-11-20T10:00:01.000Z',
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_C', is_error: true, content: 'Request failed with status code 303' },
          { type: 'tool_result', tool_use_id: 'toolu_D', is_error: true, content: '<tool_use_error>Sibling tool call errored</tool_use_error>' },
          { type: 'tool_result', tool_use_id: 'toolu_E', is_error: true, content: '<tool_use_error>Cancelled: parallel tool call WebFetch(https://docs.example/a) errored</tool_use_error>' },
        ],
      },
    });
    const outcomes = Object.fromEntries(parseClaudeCodeTranscript([calls, results].join('\n')).actions.map((a) => [a.actionId, a.outcome?.status ?? 'none']));
    expect(outcomes).toEqual({ toolu_C: 'error', toolu_D: 'none', toolu_E: 'none' });
  });

  it('counts the sample transcript’s repeated calls once', () => {
    const session = readRecording(join(SAMPLES, '02-claude-code-date-fix.jsonl'));
    expect(session.actions.map((a) => a.actionId)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `toolu_01Demo000${n}`));
    expect(session.actions[8]!.outcome).toBeUndefined();
  });

  it('reads a SWE-agent trajectory: commands as tool calls, errors from the observation, the task as the goal', () => {
    const session = parseSweAgentTrajectory(
      JSON.stringify({
        history: [{ role: 'system', content: 'You are…' }, { role: 'user', content: 'ISSUE: fix it' }],
        trajectory: [
          { action: 'open src/app.py', observation: '[File: /repo/src/app.py]', execution_time: 0.25, state: '{"working_dir": "/repo"}' },
          { action: 'python app.py', observation: 'Traceback (most recent call last):\n  ...', thought: 'Run it.' },
          { action: 'str_replace_editor create /repo/t.py --file_text \'print(1)\'', observation: 'File created successfully' },
          { action: '', observation: 'nothing ran' },
        ],
      }),
      'task-1',
    );
    expect(session.declaration).toEqual({ context: { cwd: '/repo', expected_paths: ['/repo/**'], goal: 'ISSUE: fix it' }, agent_kind: 'swe-agent' });
    expect(session.actions).toEqual([
      { actionId: 'step-1', tool: 'Read', input: { file_path: 'src/app.py' }, kind: 'tool_use', outcome: { status: 'success', output: '[File: /repo/src/app.py]', durationMs: 250 } },
      { actionId: 'step-2', tool: 'Bash', input: { command: 'python app.py' }, kind: 'tool_use', description: 'Run it.', outcome: { status: 'error', error: { message: 'Traceback (most recent call last):\n  ...' } } },
      { actionId: 'step-3', tool: 'Write', input: { file_path: '/repo/t.py', content: 'print(1)' }, kind: 'tool_use', outcome: { status: 'success', output: 'File created successfully' } },
    ]);
    expect(() => parseSweAgentTrajectory('{"info": {}}')).toThrow('a SWE-agent trajectory needs a "trajectory" list');
  });

  it("reads Warden's JSONL and names the line of a mistake", () => {
    const session = parseWardenJsonl(
      [
        '// comment',
        '{"type":"session","session_id":"s","context":{"goal":"g"},"phase":"testing"}',
        '{"type":"action","action_id":"a","tool":"Bash","input":{"command":"ls"},"at":"2026-01-01T00:00:00Z"}',
        '{"type":"action","action_id":"a","tool":"Bash","input":{"command":"ls again"}}',
        '{"type":"outcome","action_id":"a","status":"success","duration_ms":3}',
      ].join('\n'),
    );
    expect(session).toEqual({
      format: 'warden',
      sessionId: 's',
      declaration: { context: { goal: 'g' }, phase: 'testing' },
      actions: [{ actionId: 'a', tool: 'Bash', input: { command: 'ls' }, at: '2026-01-01T00:00:00Z', outcome: { status: 'success', durationMs: 3 } }],
    });
    expect(() => parseWardenJsonl('{"type":"action","action_id":"a","tool":"x","input":{}}\n{"type":"outcome","action_id":"a","status":"done"}')).toThrow(
      new RecordingError('line 2: status must be success or error'),
    );
    expect(() => parseWardenJsonl('{"type":"step"}')).toThrow('line 1: unknown record type "step" (session, action or outcome)');
    // A damaged line is skipped and reported; the records around it are read.
    const damaged = parseWardenJsonl('{"type":"action","action_id":"a","tool":"Bash","input":{}}\n{"type":"outc\n{"type":"action","action_id":"b","tool":"Bash","input":{}}');
    expect(damaged.actions.map((a) => a.actionId)).toEqual(['a', 'b']);
    expect(damaged.skippedLines).toEqual([{ line: 2, reason: expect.stringMatching(/^not JSON/) }]);
  });
});
