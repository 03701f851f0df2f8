import { performance } from 'node:perf_hooks';
import { collectionShare, parseBenchmarkOptions, recordCollectionPauses, summariseLatencies, type CollectionShare, type LatencySummary, type TimedOperation } from '@warden/observability';
import type { CustomRuleDefinition } from '@warden/review';
import { StepReviewer, type ProposedAction } from '@warden/review';

/**
 * Measures the in-process review time of the step reviewer: every built-in rule and validator plus
 * generated custom rules, over a realistic mix of agent actions in many sessions. Run by the suite's
 * benchmark (test/bench) and on its own: `node test/bench/dist/in-process/review-benchmark.js --help`.
 */

const HELP = `Usage: node test/bench/dist/in-process/review-benchmark.js [options]

Measures how long the step reviewer takes to review one action, in process. Run it with the reviewer's
Node options (apps/reviewer/package.json "nodeOptions", as \`npm run bench\` does) to measure the
reviewer as it runs: node --max-semi-space-size=32 test/bench/dist/in-process/review-benchmark.js

Options:
  --custom-rules N   custom rules besides the built-in ones (default 200)
  --cel-rules N      custom rules written as CEL conditions (when:), of the same shapes (default 0)
  --count N          reviews measured per run (default 20000)
  --warmup N         reviews before measuring (default 5000)
  --sessions N       sessions the actions are spread over (default 50)
  --json             print the figures as JSON only
  --help             this text
`;

const parseOptions = (argv: string[]) => parseBenchmarkOptions(argv, { customRules: 200, celRules: 0, count: 20_000, warmup: 5_000, sessions: 50 }, HELP, 0);
type Options = ReturnType<typeof parseOptions>;

/** Custom rules of the shapes teams write: commands, paths, URLs, input patterns, per environment. */
export function generatedCustomRules(count: number): CustomRuleDefinition[] {
  const shapes: ((i: number) => CustomRuleDefinition)[] = [
    (i) => ({ name: `team_cli_${i}`, match: { command: `teamctl${i} deploy*` }, verdict: 'require_approval', reason: `teamctl${i} deploys need approval.` }),
    (i) => ({ name: `protected_dir_${i}`, match: { written_path: `**/protected-${i}/**` }, verdict: 'block', reason: `protected-${i} is generated; do not edit it.` }),
    (i) => ({ name: `internal_api_${i}`, match: { url: `https://svc-${i}.internal.example.com/**` }, verdict: 'warn', reason: `svc-${i} is internal.` }),
    (i) => ({ name: `input_pattern_${i}`, match: { tool: 'Bash', command_regex: `\\bmigrate-${i}\\b` }, verdict: 'require_approval', reason: `migrate-${i} changes the schema.` }),
    (i) => ({ name: `mcp_tool_${i}`, match: { tool: `mcp__tool${i}__*`, environment: 'production' }, verdict: 'block', reason: `tool${i} is off limits in production.` }),
    (i) => ({ name: `package_${i}`, match: { intent: 'package_install', package: `forbidden-pkg-${i}*` }, verdict: 'block', reason: `forbidden-pkg-${i} is banned.` }),
  ];
  return Array.from({ length: count }, (_, i) => shapes[i % shapes.length]!(i));
}

/** The same shapes written as CEL conditions (`when:`), as a team moving its rules to CEL would write them. */
export function generatedCelRules(count: number): CustomRuleDefinition[] {
  const shapes: ((i: number) => CustomRuleDefinition)[] = [
    (i) => ({ name: `cel_team_cli_${i}`, when: `action.commands.exists(c, c.program == "teamctl${i}" && c.args.exists(a, a.startsWith("deploy")))`, verdict: 'require_approval', reason: `teamctl${i} deploys need approval.` }),
    (i) => ({ name: `cel_protected_dir_${i}`, when: `action.written.exists(p, glob(p, "**/protected-${i}/**"))`, verdict: 'block', reason: `protected-${i} is generated; do not edit it.` }),
    (i) => ({ name: `cel_internal_api_${i}`, when: `action.urls.exists(u, u.startsWith("https://svc-${i}.internal.example.com/"))`, verdict: 'warn', reason: `svc-${i} is internal.` }),
    (i) => ({ name: `cel_failing_migrate_${i}`, when: `session.failures >= 3 && action.command.matches("\\bmigrate-${i}\\b")`, verdict: 'require_approval', reason: `migrate-${i} after failures needs a person.` }),
    (i) => ({ name: `cel_mcp_tool_${i}`, when: `action.tool.startsWith("mcp__tool${i}__") && session.environment == "production"`, verdict: 'block', reason: `tool${i} is off limits in production.` }),
    (i) => ({ name: `cel_package_${i}`, when: `"package_install" in action.intents && action.packages.exists(p, p.startsWith("forbidden-pkg-${i}"))`, verdict: 'block', reason: `forbidden-pkg-${i} is banned.` }),
  ];
  return Array.from({ length: count }, (_, i) => shapes[i % shapes.length]!(i));
}

/** What coding agents do, weighted roughly as they do it; `n` makes inputs distinct. */
const ACTIONS: ((n: number) => Pick<ProposedAction, 'tool' | 'input'>)[] = [
  (n) => ({ tool: 'Read', input: { file_path: `/work/app/src/module-${n}.ts` } }),
  (n) => ({ tool: 'Read', input: { file_path: `/work/app/test/module-${n}.spec.ts` } }),
  (n) => ({ tool: 'Grep', input: { pattern: `symbol${n}`, path: 'src' } }),
  (n) => ({ tool: 'Glob', input: { pattern: `src/**/feature-${n}/*.ts` } }),
  (n) => ({ tool: 'Edit', input: { file_path: `/work/app/src/module-${n}.ts`, old_string: `const a = ${n};`, new_string: `const a = ${n + 1};` } }),
  (n) => ({ tool: 'Write', input: { file_path: `/work/app/src/new-${n}.ts`, content: `export const value = ${n};\n` } }),
  (n) => ({ tool: 'Bash', input: { command: `npm test -- --testPathPattern module-${n}`, description: 'Run the tests' } }),
  (n) => ({ tool: 'Bash', input: { command: `git status && git diff --stat src/module-${n}.ts` } }),
  (n) => ({ tool: 'Bash', input: { command: `npx tsc --noEmit -p tsconfig.${n}.json 2>&1 | head -50` } }),
  (n) => ({ tool: 'Bash', input: { command: `rm -rf dist/chunk-${n} && npm run build` } }),
  (n) => ({ tool: 'Bash', input: { command: `git add -A && git commit -m "fix: module ${n}"` } }),
  (n) => ({ tool: 'Bash', input: { command: `curl -s http://localhost:8080/health?probe=${n}` } }),
  (n) => ({ tool: 'WebFetch', input: { url: `https://nodejs.org/api/fs.html#${n}`, prompt: 'How do I read a file?' } }),
  (n) => ({ tool: 'Bash', input: { command: `npm install left-pad@1.${n}.0` } }),
  (n) => ({ tool: 'Bash', input: { command: `rm -rf /tmp/cache-${n} /` } }),
  (n) => ({ tool: 'Bash', input: { command: `cat ~/.aws/credentials-${n}` } }),
  (n) => ({ tool: 'Bash', input: { command: `git push --force origin fix-${n}` } }),
  (n) => ({ tool: 'mcp__github__create_issue', input: { title: `Bug ${n}`, body: 'Steps to reproduce' } }),
  (n) => ({ tool: 'Bash', input: { command: LONG_COMMANDS[n % LONG_COMMANDS.length]!.command(n) } }),
];

/** Lines up to `size` characters, as one flat string: a command decoded from JSON is flat, not a rope of its pieces. */
function repeatTo(size: number, line: (i: number) => string): string {
  const lines: string[] = [];
  for (let i = 0, length = 0; length < size; i++) {
    lines.push(line(i));
    length += lines[i]!.length;
  }
  return lines.join('');
}

/** Long commands agents send (1-4 KB), parser included: files written through here-documents, one-liners, scripts, commit messages. */
const LONG_COMMANDS: { shape: string; command: (n: number) => string }[] = [
  { shape: 'file written through a here-document', command: (n) => `cat > src/feature-${n}.ts <<'EOF'\n${repeatTo(3800, (i) => `export const value${i} = { id: ${i}, name: 'item-${n}-${i}', tags: ['a', 'b'] };\n`)}EOF` },
  { shape: 'python one-liner', command: (n) => `python3 -c "\nimport json, os\n${repeatTo(3000, (i) => `rows = [r for r in json.load(open('data/part-${n}-${i}.json')) if r.get('status') == 'open']\nprint(len(rows), os.path.getsize('data/part-${i}.json'))\n`)}"` },
  { shape: 'commit message in a substitution', command: (n) => `git add -A && git commit -m "$(cat <<'EOF'\nfeat: module ${n}\n\n${repeatTo(2500, (i) => `- handle case ${i} of the date parser without throwing on empty input\n`)}EOF\n)"` },
  {
    shape: 'script of 200 commands',
    command: (n) => repeatTo(3900, (i) => [`cd /work/app && npm run build -- --filter pkg-${n}-${i} 2>&1 | tail -20`, `git status --short | head -5`, `ls -la dist/ && cat package.json | jq .scripts`, `curl -s http://localhost:8080/health?i=${i} || echo down`][i % 4] + '\n'),
  },
  { shape: 'chain of 100 commands', command: (n) => repeatTo(1500, (i) => `test -f src/module-${n}-${i}.ts && npx tsc --noEmit -p tsconfig.${i}.json && `) + 'echo done' },
];


export async function measureReviewTime(options: Omit<Options, 'json'>) {
  const reviewer = new StepReviewer({ extraRules: [...generatedCustomRules(options.customRules), ...generatedCelRules(options.celRules)], extraRulesSource: 'generated' });
  const sessions = Array.from({ length: options.sessions }, (_, i) => ({ agentId: `agent-${i % 10}`, sessionId: `session-${i}` }));
  for (const address of sessions) {
    reviewer.startSession(address, { context: { goal: 'Fix the failing module tests', expected_paths: ['/work/app/**'], cwd: '/work/app' } });
  }
  let sequence = 0;
  const run = (count: number, distinct: boolean): number[] => {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const n = distinct ? ++sequence : i % 50;
      const template = ACTIONS[(i * 7) % ACTIONS.length]!(n);
      const address = sessions[i % sessions.length]!;
      const action: ProposedAction = { action_id: `a${++sequence}`, kind: 'tool_use', ...template };
      const started = performance.now();
      const result = reviewer.review(action, address);
      times.push(performance.now() - started);
      // Some commands fail, as they do, so that history-dependent analysis has something to read.
      if (i % 11 === 0) reviewer.recordOutcome(address, { action_id: action.action_id, status: 'error', error: { message: 'exit code 1' } });
      if (result.verdict.action_id !== action.action_id) throw new Error('verdict for another action');
    }
    return times;
  };
  run(options.warmup, true);
  const uncached = summariseLatencies(run(options.count, true));
  const cached = summariseLatencies(run(options.count, false));
  // Only commands of 1-4 KB, each distinct: the shell parser's worst realistic case.
  const long: number[] = [];
  const byShape: number[][] = LONG_COMMANDS.map(() => []);
  // Which reviews a garbage collection fell into: the tail of long commands is mostly that.
  const timed: TimedOperation[] = [];
  const recording = recordCollectionPauses();
  for (let i = 0; i < Math.min(options.count, 5000); i++) {
    const address = sessions[i % sessions.length]!;
    const shape = i % LONG_COMMANDS.length;
    const command = LONG_COMMANDS[shape]!.command(++sequence);
    const started = performance.now();
    reviewer.review({ action_id: `l${sequence}`, kind: 'tool_use', tool: 'Bash', input: { command } }, address);
    const ended = performance.now();
    const took = ended - started;
    long.push(took);
    byShape[shape]!.push(took);
    timed.push({ start: started, end: ended });
  }
  const longCommandCollections = collectionShare(timed, await recording.stop());
  const longCommands = summariseLatencies(long);
  const longCommandShapes = LONG_COMMANDS.map(({ shape, command }, i) => ({ shape, bytes: command(1).length, ...summariseLatencies(byShape[i]!) }));
  return {
    rules: { builtIn: reviewer.ruleNames.length - options.customRules - options.celRules, custom: options.customRules + options.celRules, cel: options.celRules },
    sessions: options.sessions,
    actionTemplates: ACTIONS.length,
    uncached,
    cached,
    longCommands,
    longCommandShapes,
    longCommandCollections,
    cache: reviewer.cacheStats(),
    /** How this process was started: the young generation's size decides how often a collection falls into a review. */
    nodeOptions: process.execArgv,
  };
}

async function main(): Promise<void> {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`review-benchmark: ${(error as Error).message}\n`);
    process.exit(2);
  }
  const figures = await measureReviewTime(options);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(figures)}\n`);
    return;
  }
  const collections = (c: CollectionShare) =>
    `  garbage collections began during ${c.hit} of ${c.operations} reviews of 1-4 KB (${c.pauses} pauses, ${c.meanPauseMs} ms each on average); the others: p50 ${c.withoutPauses.p50Ms} ms, p99 ${c.withoutPauses.p99Ms} ms`;
  const line = (name: string, s: LatencySummary) => `${name}: p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms, p999 ${s.p999Ms} ms, max ${s.maxMs} ms over ${s.count} reviews`;
  process.stdout.write(
    [
      `Step reviewer, in process: ${figures.rules.builtIn} built-in rules + ${figures.rules.custom} custom rules (${figures.rules.cel} of them CEL), ${figures.sessions} sessions; node ${figures.nodeOptions.join(' ') || '(no options)'}`,
      line('distinct actions (cache misses)', figures.uncached),
      line('repeated actions (cache hits)  ', figures.cached),
      line('shell commands of 1-4 KB       ', figures.longCommands),
      ...figures.longCommandShapes.map((s) => line(`  ${s.shape} (${s.bytes} bytes)`.padEnd(31), s)),
      collections(figures.longCommandCollections),
      '',
    ].join('\n'),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(`review-benchmark: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
