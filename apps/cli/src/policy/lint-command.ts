import { readFileSync } from 'node:fs';
import { isRulesDocument, lintPolicy, lintRulesFile, type LintFinding } from '@warden/review';
import { UsageError } from '../command.js';
import { out, style } from '../output.js';
import { DEPLOYMENT_POLICY, locatePolicy, shownPath as shown } from './policy-location.js';
import type { PolicySubcommand } from './policy-subcommand.js';

const read = (path: string) => readFileSync(path, 'utf8');

/** One finding on one line: `file:line:column  level  code  rule  field: message`. */
export function findingLine(f: LintFinding): string {
  const place = `${shown(f.file)}${f.line !== undefined ? `:${f.line}:${f.column ?? 1}` : ''}`;
  const level = f.level === 'error' ? style.red('error  ') : style.yellow('warning');
  const rule = f.rule !== undefined ? ` rule ${style.bold(f.rule)}` : '';
  return `${place}  ${level}  ${f.code}${rule}${f.field ? ` ${style.dim(f.field)}` : ''}: ${f.message}`;
}

export const policyLint: PolicySubcommand = {
  name: 'lint',
  summary: 'find what is wrong or weak in a policy, with file, rule and line',
  help: `Usage: warden policy lint [options] [<dir or file>]

Reads a policy without running it: a folder (its reviewer.yaml and the rules file it names), a reviewer
configuration, or a rules file alone [$REVIEWER_CONFIG, else ${DEPLOYMENT_POLICY}]. Each finding names
the file, the line, the rule and the field.

Errors (the policy is wrong):
  unknown_field       a field no one reads, anywhere: in a rule, its match or modify, the rules file,
                      the reviewer configuration (with the field probably meant)
  invalid             a rule the reviewer would refuse: a bad regex or glob, a CEL error (with its
                      position), an unknown kind or intent, a name used twice; every one, not the first
  never_matches       a rule that can never fire: a when that is always false, a part of its && chain
                      that is, parts that contradict (x == "a" && x == "b"), a command asked of a tool
                      that runs none (tool: Write with command:)
  always_matches      a rule that fires on everything it looks at: a when that is always true, or only
                      catch-all patterns (command_regex: '.*', command: '*', path: '**')
Warnings (the policy is weaker than it reads):
  matches_everything  one catch-all pattern among narrower conditions: it narrows nothing
  shadowed            a rule an earlier one covers with the same verdict (same or broader match, the
                      same when or none): it never changes a verdict
  unknown_tool        a tool name no supervised agent has (an SDK agent's own tool would still match)
  unknown_rule_name   a name in rules.disabled or rules.shadow that no rule or validator has

Options:
  --fail-on-warnings  exit 1 on warnings too
  --json              the findings as JSON: [{level, code, file, line, column, rule, field, message}]

Exit status: 0 when there is no error (and, with --fail-on-warnings, no warning); 1 otherwise; 2 on a
usage error.

Examples:
  warden policy lint deploy/reviewer
  warden policy lint policies/rules.yaml --fail-on-warnings --json`,
  options: {
    'fail-on-warnings': { type: 'boolean' },
    json: { type: 'boolean' },
  },
  async run(values, positionals) {
    if (positionals.length > 1) throw new UsageError(`lint one policy at a time (got ${positionals.join(', ')})`);
    const policy = locatePolicy(positionals[0]);
    if (!policy.config) throw new UsageError(`nothing to lint: ${policy.shown}`);
    const findings = isRulesDocument(read(policy.config)) ? lintRulesFile(policy.config, read) : lintPolicy(policy.config, read);
    const errors = findings.filter((f) => f.level === 'error').length;
    const warnings = findings.length - errors;
    if (values['json'] === true) out.line(JSON.stringify(findings.map((f) => ({ ...f, file: shown(f.file) })), null, 2));
    else {
      for (const finding of findings) out.line(findingLine(finding));
      out.line(findings.length ? `${errors} error(s), ${warnings} warning(s) in ${policy.shown}` : `${policy.shown}: no findings`);
    }
    return errors || (warnings && values['fail-on-warnings'] === true) ? 1 : 0;
  },
};
