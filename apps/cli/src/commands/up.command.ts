import { relative, resolve } from 'node:path';
import { TOPOLOGY_DEFAULTS } from '@warden/messaging';
import { integerOption, UsageError, type Command } from '../command.js';
import { LocalSuite, SuiteAlreadyRunningError } from '../local-suite/local-suite.js';
import { SuiteLifetime, SuiteStopRequested } from '../local-suite/suite-lifetime.js';
import { out, style } from '../output.js';

export const SUITE_OPTIONS = {
  'state-dir': { type: 'string' },
  partitions: { type: 'string' },
  agent: { type: 'string', multiple: true },
  'nats-port': { type: 'string' },
  'log-level': { type: 'string' },
  exit: { type: 'boolean' },
} as const;

export const SUITE_OPTIONS_HELP = `Options:
  --state-dir DIR     store, credentials and logs [.warden]
  --partitions N      partitions per session channel [${TOPOLOGY_DEFAULTS.partitions}]
  --agent ID          also create NATS credentials for this agent id (repeatable) [demo-agent only]
  --nats-port N       NATS client port, or a free one when taken [4222]
  --log-level LEVEL   services' log level: error, warn, info, debug [info]
  --exit              stop the suite when done instead of running until Ctrl-C

Environment:
  DATABASE_URL        PostgreSQL for the audit log; without it an embedded PGlite server is started
  NATS_SERVER_BIN     nats-server binary [found on PATH]`;

/**
 * Starts the suite with the command's options and prints what runs where; null when it was stopped
 * during start-up (what had started is stopped again). A suite already running here is a usage error.
 */
export async function startSuite(values: Record<string, unknown>, lifetime: SuiteLifetime): Promise<LocalSuite | null> {
  const agents = (values.agent as string[] | undefined) ?? [];
  for (const agent of agents) if (!/^[A-Za-z0-9_-]{1,128}$/.test(agent)) throw new UsageError(`agent id "${agent}" must be letters, digits, - or _`);
  const logLevel = (values['log-level'] as string | undefined) ?? 'info';
  out.line(style.bold('Starting Warden'));
  try {
    return await LocalSuite.start({
      stateDir: (values['state-dir'] as string | undefined) ?? '.warden',
      partitions: integerOption(values, 'partitions', TOPOLOGY_DEFAULTS.partitions),
      natsPort: integerOption(values, 'nats-port', 4222),
      postgresPort: 5432,
      databaseUrl: process.env.DATABASE_URL || undefined,
      agents,
      logLevel,
      onProgress: (message) => out.step(message),
      onIncident: (message) => out.warn(message),
      signal: lifetime.signal,
    });
  } catch (error) {
    if (error instanceof SuiteAlreadyRunningError) throw new UsageError(error.message);
    if (lifetime.signal.aborted && lifetime.signal.reason instanceof SuiteStopRequested) {
      out.line('Stopped before it was ready.');
      return null;
    }
    throw error;
  }
}

export function printRunning(suite: LocalSuite): void {
  const rel = (path: string) => {
    const shown = relative(process.cwd(), path) || '.';
    return shown.startsWith('..') ? resolve(path) : shown;
  };
  out.line();
  out.line(style.bold('Warden is running'));
  out.line(`  ${'NATS'.padEnd(26)} ${suite.natsUrl}  ${style.dim(`(monitoring ${suite.monitorUrl})`)}`);
  out.line(`  ${'audit database'.padEnd(26)} ${suite.databaseLabel}`);
  for (const service of suite.services) {
    out.line(`  ${service.name.padEnd(26)} ${service.url}/metrics  ${service.url}/health/ready`);
  }
  out.line(`  ${'credentials'.padEnd(26)} ${rel(resolve(suite.logDir, '..', 'credentials.json'))}  ${style.dim(`(agents: ${Object.keys(suite.credentials.agents).join(', ')})`)}`);
  out.line(`  ${'logs'.padEnd(26)} ${rel(suite.logDir)}/`);
  printLogin(suite);
}

/** How to log in to the console: the admin's password and API token when this run created them (shown once). */
export function printLogin(suite: LocalSuite): void {
  const { admin } = suite;
  out.line();
  out.line(style.bold(`Operator console: ${suite.consoleUrl}`));
  if (admin.created) {
    out.line(`  log in as ${style.bold(admin.id)} with the password ${style.bold(admin.password!)}`);
    out.line(`  API token of ${admin.id} (warden gate, warden audit, the HTTP APIs): ${admin.token}`);
    out.line(style.dim('  Both are shown this once: Warden keeps only their hashes. More operators: npx warden operator add <id> --role viewer|approver|admin'));
  } else {
    out.line(`  log in as ${style.bold(admin.id)} with the password printed when it was created; a new one: npx warden operator passwd ${admin.id}`);
    out.line(style.dim('  More operators: npx warden operator add <id> --role viewer|approver|admin; API tokens: npx warden operator token <id>'));
  }
}

/** Keeps the suite up until Ctrl-C (or SIGTERM, SIGHUP), then stops it cleanly. */
export async function runUntilInterrupted(suite: LocalSuite, lifetime: SuiteLifetime): Promise<number> {
  if (!lifetime.signal.aborted) out.line(style.dim('\nPress Ctrl-C to stop.'));
  await lifetime.stopRequested();
  await suite.stop();
  out.line('Stopped.');
  return 0;
}

export const upCommand: Command = {
  name: 'up',
  summary: 'Run the whole suite on this machine until Ctrl-C',
  help: `Usage: warden up [options]

Starts nats-server with Warden's configuration, PostgreSQL for the audit log, provisions the streams and
consumers, and runs the seven services and the operator console as separate processes. Prints where
everything listens and how to log in to the console (the first run creates the operator admin).

Ctrl-C, SIGTERM or SIGHUP stops everything it started, also during start-up; a second Ctrl-C ends
them at once. The services end with it however it ends (even killed). A second \`warden up\` with the
same state directory or NATS port is refused, naming the one that runs. A service that dies while
the suite runs is started again (with a growing wait while it keeps dying) and reported.

${SUITE_OPTIONS_HELP}`,
  options: SUITE_OPTIONS,
  async run(values) {
    const lifetime = new SuiteLifetime();
    const suite = await startSuite(values, lifetime);
    if (!suite) return 0;
    printRunning(suite);
    if (values.exit) {
      await suite.stop();
      return 0;
    }
    return runUntilInterrupted(suite, lifetime);
  },
};
