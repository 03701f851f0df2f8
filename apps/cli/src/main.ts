import 'reflect-metadata';
import { parse, UsageError, type Command } from './command.js';
import { auditCommand } from './commands/audit.command.js';
import { breakerCommand } from './commands/breaker.command.js';
import { demoCommand } from './commands/demo.command.js';
import { gateCommand } from './commands/gate.command.js';
import { hookCommand } from './commands/hook.command.js';
import { ladderCommand } from './commands/ladder.command.js';
import { natsConfigCommand } from './commands/nats-config.command.js';
import { provisionCommand } from './commands/provision.command.js';
import { replayCommand } from './commands/replay.command.js';
import { upCommand } from './commands/up.command.js';
import { out } from './output.js';

const COMMANDS: Command[] = [demoCommand, upCommand, provisionCommand, natsConfigCommand, breakerCommand, ladderCommand, gateCommand, hookCommand, replayCommand, auditCommand];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `warden: supervise AI agents while they work

Usage: warden <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Run \`warden <command> --help\` for a command's options.`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    out.line(usage());
    return name ? 0 : 1;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    out.error(`unknown command "${name}"\n\n${usage()}`);
    return 1;
  }
  try {
    const { values, positionals } = parse(command, rest);
    if (values.help) {
      out.line(command.help);
      return 0;
    }
    return await command.run(values, positionals);
  } catch (error) {
    out.error((error as Error).message);
    return error instanceof UsageError ? 2 : 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
