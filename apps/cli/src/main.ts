import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { parse, UsageError, type Command } from './command.js';
import { out } from './output.js';

/**
 * Each command is loaded when it is run: `warden hook` runs once per tool call of an agent, and should
 * not pay for loading the local suite or the operator commands.
 */
const COMMANDS: readonly (readonly [name: string, load: () => Promise<Command>])[] = [
  ['demo', async () => (await import('./commands/demo.command.js')).demoCommand],
  ['up', async () => (await import('./commands/up.command.js')).upCommand],
  ['provision', async () => (await import('./commands/provision.command.js')).provisionCommand],
  ['nats-config', async () => (await import('./commands/nats-config.command.js')).natsConfigCommand],
  ['breaker', async () => (await import('./commands/breaker.command.js')).breakerCommand],
  ['ladder', async () => (await import('./commands/ladder.command.js')).ladderCommand],
  ['gate', async () => (await import('./commands/gate.command.js')).gateCommand],
  ['hook', async () => (await import('./commands/hook.command.js')).hookCommand],
  ['check', async () => (await import('./commands/check.command.js')).checkCommand],
  ['policy', async () => (await import('./commands/policy.command.js')).policyCommand],
  ['replay', async () => (await import('./commands/replay.command.js')).replayCommand],
  ['eval', async () => (await import('./commands/eval.command.js')).evalCommand],
  ['audit', async () => (await import('./commands/audit.command.js')).auditCommand],
  ['operator', async () => (await import('./commands/operator.command.js')).operatorCommand],
];

async function usage(): Promise<string> {
  const commands = await Promise.all(COMMANDS.map(([, load]) => load()));
  const width = Math.max(...commands.map((c) => c.name.length));
  return `warden: supervise AI agents while they work

Usage: warden <command> [options]

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Run \`warden <command> --help\` for a command's options, \`warden --version\` for the version.`;
}

/** The version of this build: the CLI's own package.json, next to its dist folder. */
function version(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    out.line(`warden ${version()}`);
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    out.line(await usage());
    return name ? 0 : 1;
  }
  const load = COMMANDS.find(([command]) => command === name)?.[1];
  if (!load) {
    out.error(`unknown command "${name}"\n\n${await usage()}`);
    return 1;
  }
  const command = await load();
  try {
    const { values, positionals } = parse(command, rest);
    if (values.help) {
      out.line(command.helpFor?.(positionals) ?? command.help);
      return 0;
    }
    return await command.run(values, positionals);
  } catch (error) {
    out.error((error as Error).message);
    return error instanceof UsageError ? 2 : 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
