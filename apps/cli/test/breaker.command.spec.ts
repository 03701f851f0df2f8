import { ServiceProcess } from '@warden/local-runtime';
import { createMessage, publishSubject } from '@warden/contracts';
import { BusConnection } from '@warden/messaging';
import { TestNatsServer } from '@warden/testing';
import { UsageError } from '../src/command.js';
import { parseBreakerRequest } from '../src/commands/breaker.command.js';
import { warden } from './warden-process.fixture.js';

describe('warden breaker: arguments', () => {
  const parse = (positionals: string[], values: Record<string, unknown> = {}) => () => parseBreakerRequest(values, positionals);

  it('reads the commands into a breaker.command for the session', () => {
    expect(parseBreakerRequest({ operator: ' alice ', breaker: 'cost', reason: ' raised ' }, ['reset', 'claude-code', 'sess-1'])).toEqual({
      action: 'command',
      agentId: 'claude-code',
      sessionId: 'sess-1',
      payload: { command: 'reset', breaker: 'cost', operator_id: 'alice', reason: 'raised' },
      waitMs: 10_000,
    });
    expect(parseBreakerRequest({ operator: 'alice', wait: '0' }, ['force-open', 'a', 's'])).toMatchObject({ payload: { command: 'force_open', breaker: 'all' }, waitMs: 0 });
    expect(parseBreakerRequest({ operator: 'alice' }, ['disable', 'a', 's'])).toMatchObject({ payload: { command: 'disable' } });
    expect(parseBreakerRequest({ operator: 'alice' }, ['enable', 'a', 's'])).toMatchObject({ payload: { command: 'enable' } });
    expect(parseBreakerRequest({ json: true }, ['show', 'a', 's'])).toEqual({ action: 'show', agentId: 'a', sessionId: 's', json: true });
  });

  it.each([
    ['no subcommand', [], {}, 'say what to do: reset, force-open, disable, enable, show'],
    ['an unknown subcommand', ['trip', 'a', 's'], {}, 'unknown breaker command "trip"'],
    ['a missing session', ['reset', 'a'], { operator: 'alice' }, 'needs the agent id and the session id'],
    ['an id that is no subject token', ['show', 'a', 'bad.session'], {}, '"bad.session" must be 1-128 letters'],
    ['an unknown breaker', ['reset', 'a', 's'], { operator: 'alice', breaker: 'budget' }, '--breaker must be one of iteration, cost, time, error_rate or all'],
    ['no operator', ['reset', 'a', 's'], {}, 'warden breaker reset needs --operator <id>'],
    ['an extra argument', ['show', 'a', 's', 'x'], {}, 'unexpected argument(s): x'],
  ] as const)('refuses %s, saying what is wrong', (_name, positionals, values, message) => {
    expect(parse([...positionals], values)).toThrow(UsageError);
    expect(parse([...positionals], values)).toThrow(message);
  });
});

describe('warden breaker against a running breaker', () => {
  let nats: TestNatsServer;
  let breaker: ServiceProcess | undefined;

  beforeAll(async () => {
    nats = await TestNatsServer.start({ partitions: 2 });
    breaker = await ServiceProcess.start({ app: 'breaker', nats: nats.service, partitions: nats.partitions, env: { LOG_LEVEL: 'warn' }, readyTimeoutMs: 60_000 });
  }, 90_000);

  afterAll(async () => {
    await breaker?.stop();
    await nats?.stop();
  }, 30_000);

  it('forces a breaker open as an operator, shows it, and resets it', async () => {
    // The session exists once the breaker has seen it.
    const bus = await BusConnection.open(nats.service);
    const started = createMessage('session.started', { agent_id: 'agent-1', session_id: 'cli-s1', payload: { context: { goal: 'x' } } });
    await bus.js.publish(publishSubject('session', 'agent-1', 'cli-s1'), JSON.stringify(started), { msgID: started.id });
    await bus.close();

    const forced = await warden(['breaker', 'force-open', 'agent-1', 'cli-s1', '--breaker', 'time', '--operator', 'alice', '--reason', 'looks stuck'], nats.operator);
    expect(forced).toMatchObject({ code: 0, stderr: '' });
    expect(forced.stdout).toContain('force_open time for agent-1/cli-s1: changed time');

    const shown = await warden(['breaker', 'show', 'agent-1', 'cli-s1'], nats.service);
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout).toMatch(/^agent-1\/cli-s1: open /m);
    expect(shown.stdout).toMatch(/^ {2}time +open {2}force_open by alice: looks stuck$/m);
    expect(shown.stdout).toMatch(/^ {2}cost +closed$/m);

    const reset = await warden(['breaker', 'reset', 'agent-1', 'cli-s1', '--operator', 'bob'], nats.operator);
    expect(reset.stdout).toContain('reset all for agent-1/cli-s1: changed time');
    const json = JSON.parse((await warden(['breaker', 'show', 'agent-1', 'cli-s1', '--json'], nats.service)).stdout) as { state: string };
    expect(json.state).toBe('closed');
  }, 60_000);

  it('says when a session has no breaker state', async () => {
    const { code, stderr } = await warden(['breaker', 'show', 'agent-1', 'never-seen'], nats.service);
    expect(code).toBe(1);
    expect(stderr).toContain('agent-1/never-seen has no breaker state');
  });
});
