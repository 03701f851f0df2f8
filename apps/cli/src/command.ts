import { parseArgs, type ParseArgsConfig } from 'node:util';

export type Options = NonNullable<ParseArgsConfig['options']>;

/** One `warden` subcommand. */
export interface Command {
  name: string;
  summary: string;
  /** Shown by `warden <command> --help`: usage line, options, environment, examples. */
  help: string;
  /** The help of a subcommand (`warden policy lint --help`), when the command has its own per subcommand. */
  helpFor?(positionals: string[]): string;
  options: Options;
  run(values: Record<string, unknown>, positionals: string[]): Promise<number>;
}

export class UsageError extends Error {}

export function parse(command: Command, argv: string[]): { values: Record<string, unknown>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values, positionals };
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\nRun \`warden ${command.name} --help\` for the options.`);
  }
}

export function integerOption(values: Record<string, unknown>, name: string, fallback: number, min = 1): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new UsageError(`--${name} must be an integer >= ${min} (got "${String(raw)}")`);
  return value;
}
