/**
 * Runners: programs that run a command given to them — a project's or an environment's tool runner
 * (`npx`, `npm exec`, `bundle exec`, `poetry run`, `uv run`, `conda run`, `direnv exec`, `mise exec`),
 * a secrets injector (`op run`, `doppler run`, `aws-vault exec`, `dotenv`), a user switcher (`gosu`,
 * `runuser`, `systemd-run`) or a tool that runs command lines (`hyperfine`, `concurrently`, `watchexec`,
 * `nix-shell --run`). What they run is reviewed as a command of its own: `npx rm -rf /` deletes `/` as
 * `rm -rf /` does. The runner's own command stays as it is (what rules say of `npx` itself still holds).
 */
interface RunnerSpec {
  /** The words after the program that make it run a command (`exec`, `tool run`); none: the program itself does. */
  verb?: readonly string[];
  /** Options that take a value, so that the value is not taken for the command. */
  valued?: RegExp;
  /** Operands before the command (`direnv exec DIR cmd`, `gosu USER cmd`, `appraisal NAME cmd`). */
  operands?: number;
  /** Options whose value is a shell command line (`nix-shell --run`, `npx -c`, `hyperfine --prepare`). */
  shellOptions?: RegExp;
  /** Options after which the rest of the words is the command (`nix develop -c cmd args`). */
  restOptions?: RegExp;
  /** Each operand is a command line of its own, run by a shell (`hyperfine 'a' 'b'`, `concurrently 'a' 'b'`). */
  operandsAreShell?: boolean;
  /** The command is only what follows `--` (`mise exec node@20 -- cmd`, `chamber exec svc -- cmd`). */
  afterDashDash?: boolean;
  /** Its operands are not a command (`nix-shell -p pkg`, `nodemon app.js`): only its options run one. */
  noCommandOperands?: boolean;
}

const PACKAGE = /^(?:-p|--package)$/;
const UV_VALUED = /^(?:--with|--with-editable|--with-requirements|-p|--python|--project|--directory|--package|--extra|--group|--only-group|--env-file|--index|--default-index|--index-url|--extra-index-url|-i|--from)$/;
const CONDA_VALUED = /^(?:-n|--name|-p|--prefix|--cwd)$/;
const HYPERFINE_VALUED =
  /^(?:-w|--warmup|-m|--min-runs|-M|--max-runs|-r|--runs|-S|--shell|-n|--command-name|-u|--time-unit|-L|--parameter-list|-P|--parameter-scan|-D|--parameter-step-size|--style|--sort|--output|--input|--export-\w+)$/;

const RUNNER_TABLE: Record<string, readonly RunnerSpec[]> = {
  npx: [{ valued: PACKAGE, shellOptions: /^(?:-c|--call)$/ }],
  bunx: [{ valued: PACKAGE }],
  npm: [
    { verb: ['exec'], valued: /^(?:-p|--package|-w|--workspace)$/, shellOptions: /^(?:-c|--call)$/ },
    { verb: ['x'], valued: /^(?:-p|--package|-w|--workspace)$/, shellOptions: /^(?:-c|--call)$/ },
  ],
  pnpm: [{ verb: ['exec'], valued: /^(?:-F|--filter|-C|--dir|--workspace-concurrency)$/ }, { verb: ['dlx'], valued: /^--package$/ }],
  yarn: [{ verb: ['exec'] }, { verb: ['dlx'], valued: PACKAGE }],
  bun: [{ verb: ['x'], valued: PACKAGE }],
  bundle: [{ verb: ['exec'], valued: /^--gemfile$/ }],
  appraisal: [{ operands: 1 }],
  poetry: [{ verb: ['run'] }],
  uv: [{ verb: ['run'], valued: UV_VALUED }, { verb: ['tool', 'run'], valued: UV_VALUED }],
  uvx: [{ valued: UV_VALUED }],
  pipx: [{ verb: ['run'], valued: /^(?:--spec|--python)$/ }],
  pdm: [{ verb: ['run'] }],
  hatch: [{ verb: ['run'] }],
  rye: [{ verb: ['run'] }],
  pixi: [{ verb: ['run'], valued: /^(?:-e|--environment|--manifest-path)$/ }],
  conda: [{ verb: ['run'], valued: CONDA_VALUED }],
  mamba: [{ verb: ['run'], valued: CONDA_VALUED }],
  micromamba: [{ verb: ['run'], valued: CONDA_VALUED }],
  direnv: [{ verb: ['exec'], operands: 1 }],
  mise: [{ verb: ['exec'], afterDashDash: true }, { verb: ['x'], afterDashDash: true }],
  asdf: [{ verb: ['exec'] }],
  rbenv: [{ verb: ['exec'] }],
  pyenv: [{ verb: ['exec'] }],
  nodenv: [{ verb: ['exec'] }],
  fnm: [{ verb: ['exec'], valued: /^--using$/ }],
  volta: [{ verb: ['run'], valued: /^--(?:node|npm|yarn|pnpm)$/ }],
  nvm: [{ verb: ['exec'], operands: 1 }],
  cargo: [{ verb: ['msrv'], afterDashDash: true }],
  dotenv: [{ valued: /^-[evc]$/ }],
  dotenvx: [{ verb: ['run'], valued: /^(?:-f|--env-file|-e|--env|--convention)$/ }],
  op: [{ verb: ['run'], valued: /^--env-file$/ }],
  doppler: [{ verb: ['run'], valued: /^(?:-p|--project|-c|--config|--scope|--token)$/, shellOptions: /^--command$/ }],
  infisical: [{ verb: ['run'], valued: /^(?:--env|--path|--projectId|--token|--domain)$/, shellOptions: /^--command$/ }],
  'aws-vault': [{ verb: ['exec'], operands: 1, valued: /^(?:-d|--duration|--region|-t|--mfa-token|--server)$/ }],
  chamber: [{ verb: ['exec'], afterDashDash: true }],
  sops: [{ verb: ['exec-env'], operands: 1, operandsAreShell: true }, { verb: ['exec-file'], operands: 1, operandsAreShell: true }],
  gosu: [{ operands: 1 }],
  'su-exec': [{ operands: 1 }],
  runuser: [{ valued: /^(?:-u|--user|-g|--group|-G|--supp-group|-s|--shell)$/, shellOptions: /^(?:-c|--command)$/ }],
  'systemd-run': [
    {
      valued:
        /^(?:-u|--unit|-p|--property|--uid|--gid|-E|--setenv|--working-directory|--description|--slice|-M|--machine|-H|--host|--on-calendar|--on-active|--on-boot|--timer-property|--path-property|--socket-property|--nice|--service-type)$/,
    },
  ],
  fakeroot: [{ valued: /^(?:-l|--lib|--faked|-s|-i)$/ }],
  chronic: [{}],
  ifne: [{}],
  entr: [{}],
  watchexec: [
    {
      valued:
        /^(?:-e|--exts|-w|--watch|-W|--watch-non-recursive|-i|--ignore|--ignore-file|-d|--debounce|--delay-run|-s|--signal|--stop-signal|--stop-timeout|--shell|-f|--filter|--filter-file|-j|--filter-prog|--on-busy-update|--workdir|-E|--env|--project-origin|--poll|--emit-events-to|--log-file|--color|--timeout)$/,
    },
  ],
  hyperfine: [{ valued: HYPERFINE_VALUED, shellOptions: /^(?:-p|--prepare|-s|--setup|-c|--cleanup|-C|--conclude)$/, operandsAreShell: true }],
  concurrently: [
    {
      valued: /^(?:-n|--names|-c|--prefix-colors|-p|--prefix|-l|--prefix-length|-t|--timestamp-format|-m|--max-processes|--restart-tries|--restart-after|-s|--success|--default-input-target|--name-separator|--kill-signal)$/,
      operandsAreShell: true,
    },
  ],
  'nix-shell': [{ valued: /^(?:-p|--packages|-A|--attr|-I|--arg|--argstr|--option)$/, shellOptions: /^(?:--run|--command)$/, noCommandOperands: true }],
  nix: [
    { verb: ['develop'], restOptions: /^(?:-c|--command)$/, noCommandOperands: true },
    { verb: ['shell'], restOptions: /^(?:-c|--command)$/, noCommandOperands: true },
  ],
  nodemon: [{ shellOptions: /^(?:-x|--exec)$/, noCommandOperands: true }],
};
/** By program name, own entries only. */
const RUNNERS: ReadonlyMap<string, readonly RunnerSpec[]> = new Map(Object.entries(RUNNER_TABLE));

/** What a runner runs: commands already split into words, and command lines a shell reads. */
export interface RunnerCommands {
  commands: { argv: string[]; dynamic: boolean[]; via: string }[];
  code: { text: string; via: string }[];
}

/** The commands a runner runs, or null when `name` is no runner (or it runs nothing here: `npm exec` alone). */
export function runnerCommands(name: string, argv: readonly string[], dynamic: readonly boolean[]): RunnerCommands | null {
  const specs = RUNNERS.get(name);
  if (!specs) return null;
  for (const spec of specs) {
    const start = verbEnd(argv, spec.verb ?? []);
    if (start < 0) continue;
    const via = [name, ...(spec.verb ?? [])].join(' ');
    const found: RunnerCommands = { commands: [], code: [] };
    let i = start;
    let dashDash = false;
    while (i < argv.length && argv[i]!.startsWith('-') && argv[i] !== '-') {
      const a = argv[i]!;
      if (a === '--') {
        dashDash = true;
        i++;
        break;
      }
      const [option, attached] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      if (spec.restOptions?.test(option)) {
        const rest = argv.slice(i + 1);
        if (rest.length) found.commands.push({ argv: rest, dynamic: dynamic.slice(i + 1), via });
        return found;
      }
      if (spec.shellOptions?.test(option)) {
        const text = attached ?? argv[i + 1];
        if (text?.trim()) found.code.push({ text, via: `${via} ${option}` });
        i += attached === undefined ? 2 : 1;
        continue;
      }
      i += attached === undefined && spec.valued?.test(option) ? 2 : 1;
    }
    if (spec.noCommandOperands) return found;
    if (spec.afterDashDash && !dashDash) {
      const separator = argv.indexOf('--', i);
      if (separator < 0) return found;
      i = separator + 1;
    } else if (!dashDash) {
      i += spec.operands ?? 0;
      if (argv[i] === '--') i++;
    }
    const command = argv.slice(i);
    if (!command.length) return found;
    if (spec.operandsAreShell) {
      for (const text of command) if (text.trim()) found.code.push({ text, via });
    } else if (command.length === 1 && /\s/.test(command[0]!)) {
      // One quoted word with blanks in it (`watchexec 'npm test && rm -rf dist'`): a command line for a shell.
      found.code.push({ text: command[0]!, via });
    } else if (/\.pyw?$/.test(command[0]!)) {
      // `uv run solver.py data/x`: a script, which the runner hands to Python.
      found.commands.push({ argv: ['python', ...command], dynamic: [false, ...dynamic.slice(i)], via });
    } else {
      found.commands.push({ argv: command, dynamic: dynamic.slice(i), via });
    }
    return found;
  }
  return null;
}

/**
 * Where the words after the runner's verb begin, or -1 when the command does not use that verb. Options
 * may stand before the verb (`npm --prefix web exec`, `uv --directory api run`): a word that is not an
 * option there must be the value of the option before it.
 */
function verbEnd(argv: readonly string[], verb: readonly string[]): number {
  if (!verb.length) return 1;
  for (let i = 1; i < argv.length && i <= 4; i++) {
    const a = argv[i]!;
    if (a === verb[0]) return verb.every((word, k) => argv[i + k] === word) ? i + verb.length : -1;
    if (a.startsWith('-')) continue;
    if (!argv[i - 1]!.startsWith('-') || argv[i - 1]!.includes('=')) return -1;
  }
  return -1;
}
