import { UsageError, type Command } from '../command.js';
import { policyExplain } from '../policy/explain-command.js';
import { policyLint } from '../policy/lint-command.js';
import type { PolicySubcommand } from '../policy/policy-subcommand.js';
import { policyTest } from '../policy/test-command.js';

const SUBCOMMANDS: readonly PolicySubcommand[] = [policyTest, policyExplain, policyLint];
const width = Math.max(...SUBCOMMANDS.map((s) => s.name.length));

export const policyCommand: Command = {
  name: 'policy',
  summary: 'Test, explain and lint a review policy, in process: its test cases, why an action gets its verdict, what is wrong in it',
  help: `Usage: warden policy <subcommand> [options]

A review policy is a reviewer configuration (reviewer.yaml) with its custom rules (match and CEL when:
conditions) and their tests. Everything here runs in this process with the reviewer's own code: no NATS,
no running suite (explain --action reads the audit service).

Subcommands:
${SUBCOMMANDS.map((s) => `  ${s.name.padEnd(width)}  ${s.summary}`).join('\n')}

Run \`warden policy <subcommand> --help\` for its options.

Examples:
  warden policy test deploy/reviewer
  warden policy explain --policy deploy/reviewer -- terraform apply -auto-approve
  warden policy lint deploy/reviewer`,
  helpFor(positionals) {
    return SUBCOMMANDS.find((s) => s.name === positionals[0])?.help ?? this.help;
  },
  options: Object.assign({}, ...SUBCOMMANDS.map((s) => s.options)),
  async run(values, positionals) {
    const [name, ...rest] = positionals;
    const subcommand = SUBCOMMANDS.find((s) => s.name === name);
    const names = SUBCOMMANDS.map((s) => s.name).join(', ');
    if (!subcommand) throw new UsageError(name ? `unknown policy command "${name}": use ${names}` : `say what to do: warden policy ${names.replaceAll(', ', '|')} …`);
    // One parser reads every subcommand's options: one given to another subcommand is refused here.
    const foreign = Object.keys(values).find((option) => option !== 'help' && !(option in subcommand.options));
    if (foreign) throw new UsageError(`--${foreign} is not an option of warden policy ${subcommand.name}; run \`warden policy ${subcommand.name} --help\``);
    return subcommand.run(values, rest);
  },
};
