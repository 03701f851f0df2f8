import type { Options } from '../command.js';

/** One of `warden policy test | explain | lint`: its own help and options. */
export interface PolicySubcommand {
  name: string;
  summary: string;
  help: string;
  options: Options;
  run(values: Record<string, unknown>, positionals: string[]): Promise<number>;
}
