import { NO_DEADLINE_SETTINGS, resolveGates } from '@warden/gate';
import { CommandDispatcher } from '../src/core/command-dispatcher.js';
import { APPROVAL_DELIVERY_DEFAULTS } from '../src/config.js';
import { AGENT, GateFixture } from './gate-fixture.js';

/**
 * A command given while no gate owns the session (all replicas restarting) is stored, answered 202,
 * and applied once a gate owns the session again.
 */
describe('a command while no gate is up', () => {
  let f: GateFixture;

  beforeAll(async () => {
    f = await GateFixture.start({}, 0);
  }, 60_000);

  afterAll(async () => {
    await f?.stop();
  }, 30_000);

  it('is stored, answered as accepted, and applied when a gate starts', async () => {
    const dispatcher = new CommandDispatcher(f.bus, { gates: resolveGates(), commandReplyTimeoutMs: 300, agentUserApprovals: true, approvals: { channels: [], delivery: APPROVAL_DELIVERY_DEFAULTS, deadlines: NO_DEADLINE_SETTINGS } });
    const session = f.newSession('late');
    const outcome = await dispatcher.dispatch({
      type: 'hitl_pause',
      session_id: session,
      agent_id: AGENT,
      operator_id: 'operator-xander',
      timestamp: new Date().toISOString(),
      reason: 'Hold until I am back',
    });
    expect(outcome).toMatchObject({ status: 'accepted', command_id: expect.any(String) });
    expect(f.on('gate_command', session, 'gate.command')).toHaveLength(1);
    expect(f.on('gate', session)).toHaveLength(0);

    await f.startGate('gate-late');
    const [open] = await f.waitOn('gate', session, 'hitl.paused');
    expect(open!.body.payload).toMatchObject({ operator_id: 'operator-xander', reason: 'Hold until I am back' });
    expect((await f.view(session)).status).toBe('paused');
  });
});
