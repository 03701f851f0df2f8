import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { readReviewSources, StepReviewer } from '@warden/review';
import { readSettingsText } from '@warden/settings-loader';
import { UsageError } from '../command.js';
import { out, style } from '../output.js';
import type { PolicySubcommand } from './policy-subcommand.js';
import { junitXml, PolicyTestFileError, readPolicyTestFile, runPolicyTests, type PolicyTestResult } from './policy-tests.js';

const TEST_FILE = /\.test\.ya?ml$/;

/** The test files a path names: the file itself, or the *.test.yaml files in the folder and its folders one level down. */
function testFiles(path: string): string[] {
  if (!existsSync(path)) throw new UsageError(`${path} does not exist`);
  if (statSync(path).isFile()) return [path];
  const found: string[] = [];
  for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isFile() && TEST_FILE.test(entry.name)) found.push(join(path, entry.name));
    if (entry.isDirectory() && !entry.name.startsWith('.')) {
      for (const inner of readdirSync(join(path, entry.name)).sort()) if (TEST_FILE.test(inner)) found.push(join(path, entry.name, inner));
    }
  }
  return found;
}

export const policyTest: PolicySubcommand = {
  name: 'test',
  summary: "run the policy's test files with the whole reviewer, in process",
  help: `Usage: warden policy test [options] <dir or file>...

Runs the policy's tests: each *.test.yaml file in the folder (and in its folders one level down) holds
cases, each an action, what the session has been through, and the verdict (and rule) it must get. They
are reviewed in this process by the whole reviewer with the policy's configuration (the built-in rules
included, unless --only-custom), each in a session of its own. No NATS, no running suite.

A test file:
  config: ../reviewer.yaml         # the reviewer configuration, relative to the test file [reviewer.yaml]
  tests:
    - name: terraform apply needs a person
      command: terraform apply -auto-approve      # or tool: Write and input: {file_path: …, content: …}
      session:                                    # all optional
        goal: Tidy the staging namespace
        environment: production
        failures: 3                               # failed commands before this action
        spend_usd: 24.5                           # what the session's run has cost (session.spend_usd)
        agent: agent-7
      expect:
        verdict: require_approval                 # or a list of verdicts that are right
        rule: terraform_apply_needs_approval      # must be among the rules that fired ("none": no rule)
        not_rule: no_edits_to_generated_code      # must not be among them

Options:
      --only-custom   only the policy's own rules: the built-in rules are left out (validators and the
                      risk matrix still decide as they do)
      --junit FILE    also write the results as JUnit XML to FILE
      --quiet         print only failures and the summary

Exit status: 0 when every case passed; 1 when one did not; 2 on a usage error or a file that cannot be
read (a broken rule in the policy is one: its name, the field and the position are printed).

Examples:
  warden policy test deploy/reviewer
  warden policy test policies/ --junit reports/policy.xml`,
  options: {
    'only-custom': { type: 'boolean' },
    junit: { type: 'string' },
    quiet: { type: 'boolean' },
  },
  async run(values, positionals) {
    const paths = positionals;
    if (!paths.length) throw new UsageError('give the policy folder or test files: warden policy test deploy/reviewer');
    const files = paths.flatMap((p) => testFiles(resolve(p)));
    if (!files.length) throw new UsageError(`no *.test.yaml files in ${paths.join(', ')}`);
    const suites: { file: string; results: PolicyTestResult[] }[] = [];
    const reviewers = new Map<string, StepReviewer>();
    for (const file of files) {
      const shown = relative(process.cwd(), file) || file;
      let tests;
      try {
        tests = readPolicyTestFile(readFileSync(file, 'utf8'), shown);
      } catch (error) {
        if (error instanceof PolicyTestFileError) throw new UsageError(error.message);
        throw error;
      }
      const config = resolve(dirname(file), tests.config ?? 'reviewer.yaml');
      let reviewer = reviewers.get(config);
      if (!reviewer) {
        if (!existsSync(config)) throw new UsageError(`${shown}: its configuration ${relative(process.cwd(), config)} does not exist (config: in the test file)`);
        try {
          const sources = readReviewSources(config, readSettingsText);
          const settings = values['only-custom'] === true ? onlyCustom(sources.settings) : sources.settings;
          reviewer = new StepReviewer({ ...sources, settings });
        } catch (error) {
          throw new UsageError(`${relative(process.cwd(), config)}: ${(error as Error).message}`);
        }
        reviewers.set(config, reviewer);
      }
      suites.push({ file: shown, results: runPolicyTests(tests.tests, reviewer, shown) });
    }
    for (const { file, results } of suites) {
      if (values.quiet !== true) out.line(style.bold(file));
      for (const r of results) {
        if (r.passed && values.quiet === true) continue;
        const hits = r.ruleHits.length ? ` (${r.ruleHits.join(', ')})` : '';
        out.line(r.passed ? `  ${style.green('✓')} ${r.name}: ${r.verdict}${hits}` : `  ${style.red('✗')} ${r.name}: ${r.failure!.slice(file.length + 2)}\n      ${r.reasons.join('\n      ')}`);
      }
    }
    const all = suites.flatMap((s) => s.results);
    const failed = all.filter((r) => !r.passed).length;
    out.line(`${all.length} cases in ${suites.length} file(s): ${all.length - failed} passed, ${failed} failed`);
    if (typeof values.junit === 'string') writeFileSync(values.junit, junitXml(suites));
    return failed ? 1 : 0;
  },
};

type Mapping = Record<string, unknown>;
const mapping = (value: unknown): Mapping => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Mapping) : {});

/** The configuration without the built-in rules (under `step_reviewer:` when the document has that section). */
function onlyCustom(settings: unknown): unknown {
  const document = mapping(settings);
  const sectioned = 'step_reviewer' in document;
  const section = sectioned ? mapping(document['step_reviewer']) : document;
  const changed = { ...section, rules: { ...mapping(section['rules']), builtin: 'none' } };
  return sectioned ? { ...document, step_reviewer: changed } : changed;
}
