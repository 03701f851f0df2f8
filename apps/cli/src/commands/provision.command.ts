import { isSubjectToken } from '@warden/contracts';
import { BusConnection, buildTopology, natsSettingsFromEnv, provision, probePartitionMapping, TOPOLOGY_DEFAULTS } from '@warden/messaging';
import { integerOption, UsageError, type Command } from '../command.js';
import { out } from '../output.js';

export const provisionCommand: Command = {
  name: 'provision',
  summary: 'Create or update the JetStream streams, consumers, KV buckets and agents\' checkpoint stores',
  help: `Usage: warden provision [--partitions N] [--replicas N] [--agent ID]... [--dry-run] [--prune]

Creates every stream, durable consumer and KV bucket the suite declares, and updates settings that can
change in place. A consumer whose filter or delivery target strays from the topology (what it delivers is
not what its service expects) is repaired: recreated from the stream position it had acknowledged.
Safe to run any number of times; run it before the services start and after upgrades.
Agents may not create streams, so the checkpoint object store of each agent (warden_checkpoints_<id>,
where the SDK keeps file snapshots for rollback) is created here: name every agent with --agent.

Options:
  --partitions N   partitions per session channel [${TOPOLOGY_DEFAULTS.partitions}]; must match the server's mapping
  --replicas N     stream replicas: 1 on one server, 3 on a cluster [1]
  --agent ID       an agent whose checkpoint store to create (repeat for each agent)
  --dry-run        show what would change, change nothing
  --prune          delete Warden consumers the topology no longer declares

Environment: NATS_URL [nats://127.0.0.1:4222], NATS_USER, NATS_PASSWORD (a service user).

Example:
  NATS_URL=nats://nats:4222 NATS_USER=warden NATS_PASSWORD=... warden provision --partitions 8 --agent claude-code`,
  options: {
    partitions: { type: 'string' },
    replicas: { type: 'string' },
    agent: { type: 'string', multiple: true },
    'dry-run': { type: 'boolean' },
    prune: { type: 'boolean' },
  },
  async run(values) {
    const partitions = integerOption(values, 'partitions', TOPOLOGY_DEFAULTS.partitions);
    const replicas = integerOption(values, 'replicas', 1);
    const agents = (values.agent as string[] | undefined) ?? [];
    const invalid = agents.find((agent) => !isSubjectToken(agent));
    if (invalid !== undefined) throw new UsageError(`agent id "${invalid}" must be 1-128 letters, digits, - or _`);
    const settings = natsSettingsFromEnv(process.env, 'warden-provision');
    const bus = await BusConnection.open(settings);
    try {
      const probe = await probePartitionMapping(bus.nc, partitions);
      if (!probe.ok) {
        out.error(probe.detail);
        return 1;
      }
      const report = await provision(bus.nc, bus.jsm, buildTopology({ partitions, replicas, agents }), {
        dryRun: values['dry-run'] === true,
        prune: values.prune === true,
        // Said once: a cluster electing its leaders answers within seconds; a server without JetStream never does.
        onWait: (error, attempt) => {
          if (attempt === 1) out.error(`JetStream at ${settings.servers} does not answer yet (${(error as Error).message}); trying again for up to a minute (is JetStream enabled on the server?)`);
        },
      });
      const counts = new Map<string, number>();
      for (const change of report.changes) {
        counts.set(change.action, (counts.get(change.action) ?? 0) + 1);
        if (change.action !== 'unchanged') out.line(`  ${change.action.padEnd(9)} ${change.kind.padEnd(8)} ${change.name}${change.detail ? `  (${change.detail})` : ''}`);
      }
      const summary = [...counts].map(([action, n]) => `${n} ${action}`).join(', ');
      out.line(`${values['dry-run'] ? 'Would provision' : 'Provisioned'} ${settings.servers}: ${summary}`);
      return 0;
    } finally {
      await bus.close();
    }
  },
};
