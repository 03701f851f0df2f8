import { Kvm } from '@nats-io/kv';
import { LADDER_RECORD_BUCKET } from '@warden/contracts';
import { ServiceProcess } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import { TestNatsServer } from '@warden/testing';
import { UsageError } from '../src/command.js';
import { parseLadderRequest } from '../src/commands/ladder.command.js';
import { warden } from './warden-process.fixture.js';

describe('warden ladder: arguments', () => {
  const parse = (positionals: string[], values: Record<string, unknown> = {}) => () => parseLadderRequest(values, positionals);

  it('reads pin, set and unpin into a ladder.command for the agent', () => {
    expect(parseLadderRequest({ operator: 'alice', reason: ' New model ' }, ['pin', 'claude-code', '1'])).toEqual({
      action: 'command',
      agentId: 'claude-code',
      payload: { command: 'pin', level: 1, operator_id: 'alice', reason: 'New model' },
      waitMs: 10_000,
    });
    expect(parseLadderRequest({ operator: 'alice', wait: '0' }, ['set', 'claude-code', '4'])).toMatchObject({ payload: { command: 'set_level', level: 4 }, waitMs: 0 });
    expect(parseLadderRequest({ operator: 'alice' }, ['unpin', 'claude-code'])).toMatchObject({ payload: { command: 'unpin', operator_id: 'alice' } });
    expect(parseLadderRequest({ json: true }, ['show', 'claude-code'])).toEqual({ action: 'show', agentId: 'claude-code', json: true });
  });

  it.each([
    ['no subcommand', [], {}, 'say what to do: pin, unpin, set or show'],
    ['an unknown subcommand', ['promote', 'a'], {}, 'unknown ladder command "promote"'],
    ['a missing agent', ['pin'], { operator: 'alice' }, 'warden ladder pin needs the agent id'],
    ['an agent id that is no subject token', ['show', 'bad.agent'], {}, 'agent id "bad.agent" must be 1-128 letters, digits, - or _'],
    ['pin without a level', ['pin', 'claude-code'], { operator: 'alice' }, 'warden ladder pin needs the level (0 Manual, 1 AI Suggests, 2 AI Acts, 3 AI Autonomous, 4 Full Autonomy)'],
    ['level 5', ['set', 'claude-code', '5'], { operator: 'alice' }, 'level must be 0-4'],
    ['a level that is no number', ['set', 'claude-code', 'two'], { operator: 'alice' }, 'level must be 0-4'],
    ['pin without an operator', ['pin', 'claude-code', '2'], {}, 'warden ladder pin needs --operator <id>'],
    ['a blank operator', ['unpin', 'claude-code'], { operator: '  ' }, 'warden ladder unpin needs --operator <id>'],
    ['a level for unpin', ['unpin', 'claude-code', '2'], { operator: 'alice' }, 'unexpected argument(s) for warden ladder unpin: 2'],
    ['an extra argument to show', ['show', 'claude-code', 'extra'], {}, 'unexpected argument(s) for warden ladder show: extra'],
    ['an extra argument to pin', ['pin', 'claude-code', '2', 'extra'], { operator: 'alice' }, 'unexpected argument(s) for warden ladder pin: extra'],
    ['a reason over 2000 characters', ['pin', 'claude-code', '2'], { operator: 'alice', reason: 'x'.repeat(2001) }, '--reason must be at most 2000 characters'],
    ['a wait that is no number', ['pin', 'claude-code', '2'], { operator: 'alice', wait: 'soon' }, '--wait must be an integer >= 0'],
  ] as const)('refuses %s, saying what is wrong', (_name, positionals, values, message) => {
    expect(parse([...positionals], values)).toThrow(UsageError);
    expect(parse([...positionals], values)).toThrow(message);
  });
});

describe('warden ladder against a running ladder', () => {
  let nats: TestNatsServer;
  let ladder: ServiceProcess | undefined;

  beforeAll(async () => {
    nats = await TestNatsServer.start({ partitions: 2 });
    ladder = await ServiceProcess.start({ app: 'ladder', nats: nats.service, partitions: nats.partitions, env: { LOG_LEVEL: 'warn' }, readyTimeoutMs: 60_000 });
  }, 90_000);

  afterAll(async () => {
    await ladder?.stop();
    await nats?.stop();
  }, 30_000);

  it('pins as an operator, refuses set while pinned with the ladder’s reason, shows the pin, and unpins', async () => {
    const pin = await warden(['ladder', 'pin', 'cli-agent', '2', '--operator', 'alice', '--reason', 'Release week'], nats.operator);
    expect(pin).toMatchObject({ code: 0, stderr: '' });
    expect(pin.stdout).toContain('cli-agent: AI Suggests (level 1) → AI Acts (level 2)');
    expect(pin.stdout).toContain('Pinned by alice at AI Acts (level 2): Release week');

    const set = await warden(['ladder', 'set', 'cli-agent', '4', '--operator', 'bob'], nats.operator);
    expect(set.code).toBe(1);
    expect(set.stderr).toContain('the ladder refused set_level for cli-agent: pinned at AI Acts (level 2) by alice: unpin first, or pin another level');

    const show = await warden(['ladder', 'show', 'cli-agent'], nats.service);
    expect(show).toMatchObject({ code: 0, stderr: '' });
    expect(show.stdout).toMatch(/^cli-agent: AI Acts \(level 2\), pinned by alice since \S+$/m);
    expect(show.stdout).toMatch(/^ {2}pin reason +Release week$/m);
    expect(show.stdout).toMatch(/^ {2}runs +0 \(0 successful\)$/m);

    const unpin = await warden(['ladder', 'unpin', 'cli-agent', '--operator', 'bob'], nats.operator);
    expect(unpin).toMatchObject({ code: 0, stderr: '' });
    expect(unpin.stdout).toContain('Unpinned by bob: the ladder manages AI Acts (level 2) again');

    const json = await warden(['ladder', 'show', 'cli-agent', '--json'], nats.service);
    expect(JSON.parse(json.stdout)).toMatchObject({ agentId: 'cli-agent', level: 2, pin: null });
  }, 60_000);

  it('says when an agent has no track record', async () => {
    const { code, stderr } = await warden(['ladder', 'show', 'nobody-yet'], nats.service);
    expect(code).toBe(1);
    expect(stderr).toContain('nobody-yet has no track record yet');
  });

  it('sends without waiting when asked, and the ladder applies the command', async () => {
    const sent = await warden(['ladder', 'set', 'cli-quiet', '3', '--operator', 'alice', '--wait', '0'], nats.operator);
    expect(sent).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Sent set_level for cli-quiet \(message [0-9a-f-]+\)\.$/m) });
    const bus = await BusConnection.open(nats.service);
    try {
      const kv = await new Kvm(bus.nc).open(LADDER_RECORD_BUCKET);
      const deadline = Date.now() + 20_000;
      let level: number | undefined;
      while (level !== 3 && Date.now() < deadline) {
        const entry = await kv.get('cli-quiet');
        level = entry?.operation === 'PUT' ? (entry.json<{ level: number }>().level) : undefined;
        if (level !== 3) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(level).toBe(3);
    } finally {
      await bus.close();
    }
  });
});
