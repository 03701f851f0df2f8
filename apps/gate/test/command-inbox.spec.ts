import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '@warden/testing';
import { AGENT, GateFixture } from './gate-fixture.js';

/** The command inbox of FR-11.4 (GATE_INBOX_DIR): one JSON file per command, processed once. */
describe('command inbox directory', () => {
  let f: GateFixture;
  let inbox: string;

  beforeAll(async () => {
    inbox = mkdtempSync(join(tmpdir(), 'gate-inbox-'));
    f = await GateFixture.start({ GATE_INBOX_DIR: inbox, GATE_INBOX_SCAN_MS: '100' });
  }, 60_000);

  afterAll(async () => {
    await f?.stop();
    rmSync(inbox, { recursive: true, force: true });
  }, 30_000);

  const drop = (session: string, id: string, content: unknown) => {
    mkdirSync(join(inbox, session), { recursive: true });
    writeFileSync(join(inbox, session, `${id}.json`), typeof content === 'string' ? content : JSON.stringify(content));
  };
  const command = (session: string, fields: Record<string, unknown>) => ({
    session_id: session,
    agent_id: AGENT,
    operator_id: 'operator-xander',
    timestamp: new Date().toISOString(),
    ...fields,
  });
  const waitFile = (path: string) => eventually(path, () => existsSync(path));
  /** A file handled or moved aside: the inbox writes its result or reason in full first, then moves it. */
  const waitProcessed = (session: string, id: string) => waitFile(join(inbox, session, '.processed', `${id}.json`));
  const waitRejected = (session: string, id: string) => waitFile(join(inbox, session, '.rejected', `${id}.json`));
  const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

  it('applies a command file once and keeps it with the result under .processed', async () => {
    const session = f.newSession('inbox');
    drop(session, 'cmd-1', command(session, { type: 'hitl_pause', reason: 'From the command queue' }));
    await waitProcessed(session, 'cmd-1');
    expect(json(join(inbox, session, '.processed', 'cmd-1.result.json'))).toMatchObject({ status: 'ok' });
    expect(existsSync(join(inbox, session, 'cmd-1.json'))).toBe(false);
    expect(existsSync(join(inbox, session, '.processed', 'cmd-1.json'))).toBe(true);
    expect((await f.view(session)).status).toBe('paused');
    const [open] = await f.waitOn('gate', session, 'hitl.paused');
    expect(open!.body.payload).toMatchObject({ operator_id: 'operator-xander', reason: 'From the command queue' });

    const held = await f.verdict(session);
    await f.waitBuffered(session, 1);
    drop(session, 'cmd-2', command(session, { type: 'hitl_rewrite', original_trace_id: held.trace_id, new_content: '{"file_path":"/work/app/x.ts"}' }));
    drop(session, 'cmd-3', command(session, { type: 'hitl_unpause' }));
    const decision = await f.waitDecision(session, held.payload.action_id);
    expect(decision.payload).toMatchObject({ decision: 'allow', updated_input: { file_path: '/work/app/x.ts' } });
    await waitProcessed(session, 'cmd-3');
    expect(f.on('gate_command', session).length).toBe(3);

    // The same command id again is not applied a second time.
    drop(session, 'cmd-1', command(session, { type: 'hitl_pause', reason: 'again' }));
    await waitRejected(session, 'cmd-1');
    expect(json(join(inbox, session, '.rejected', 'cmd-1.reason.json')).reason).toMatch(/^duplicate_command_id/);
    expect((await f.view(session)).status).toBe('normal');
  });

  it.each([
    ['malformed JSON', '{"type": "hitl_pause", oops', 'invalid_json'],
    ['a missing required field', { type: 'hitl_pause', agent_id: AGENT, operator_id: 'op', timestamp: new Date().toISOString() }, 'missing_required_field: reason'],
    ['an unknown type', { type: 'hitl_explode', agent_id: AGENT, operator_id: 'op', timestamp: new Date().toISOString() }, 'unknown_command_type'],
    ['a rewrite of a trace id not buffered', { type: 'hitl_rewrite', agent_id: AGENT, operator_id: 'op', timestamp: new Date().toISOString(), original_trace_id: 'nope', new_content: '{}' }, 'trace_id_not_found_in_buffer'],
  ])('moves a file with %s aside with a reason file', async (_name, content, reason) => {
    const session = f.newSession('inbox');
    const body = typeof content === 'string' ? content : { session_id: session, ...content };
    drop(session, 'bad', body);
    await waitRejected(session, 'bad');
    expect(json(join(inbox, session, '.rejected', 'bad.reason.json'))).toMatchObject({ status: 'error', reason });
    expect(existsSync(join(inbox, session, '.rejected', 'bad.json'))).toBe(true);
    expect(existsSync(join(inbox, session, 'bad.json'))).toBe(false);
    expect((await f.view(session)).status).toBe('normal');
  });

  it('refuses a file whose session differs from its folder', async () => {
    const session = f.newSession('inbox');
    drop(session, 'elsewhere', command('another-session', { type: 'hitl_pause', reason: 'x' }));
    await waitRejected(session, 'elsewhere');
    expect(json(join(inbox, session, '.rejected', 'elsewhere.reason.json')).reason).toMatch(/^session_id_mismatch/);
    expect(f.on('gate_command', 'another-session')).toHaveLength(0);
  });

  it('keeps serving after bad files: the folders hold only what was handled', async () => {
    const session = f.newSession('inbox');
    drop(session, 'ok-1', command(session, { type: 'hitl_inject', prompt: 'Carry on.' }));
    await f.waitOn('control', session, 'control.issued');
    await waitProcessed(session, 'ok-1');
    expect(readdirSync(join(inbox, session)).sort()).toEqual(['.processed', '.processing']);
  });
});
