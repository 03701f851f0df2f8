import { runnerCommands } from './command-runners.js';
import { analyseShellCommand } from './shell-command.js';

const words = (line: string) => line.split(' ');
const run = (line: string) => {
  const argv = words(line);
  return runnerCommands(argv[0]!, argv, argv.map(() => false));
};
/** The commands a line runs, as the reviewer sees them: the runner's own and what it runs. */
const programs = (line: string) => analyseShellCommand(line).segments.map((s) => s.argv.join(' '));

describe('runners: what they run is a command of its own', () => {
  it.each([
    ['npx rm -rf /', 'rm -rf /'],
    ['npx --yes -p cowsay cowsay hi', 'cowsay hi'],
    ['npm --prefix web exec -- rm -rf ~', 'rm -rf ~'],
    ['pnpm exec --filter api rm -rf /', 'rm -rf /'],
    ['bundle exec rspec spec/models', 'rspec spec/models'],
    ['poetry run pytest -q', 'pytest -q'],
    ['uv run --with rich python main.py', 'python main.py'],
    ['uv tool run ruff check', 'ruff check'],
    ['uv run solver.py data/x', 'python solver.py data/x'],
    ['conda run -n ml python train.py', 'python train.py'],
    ['direnv exec . make test', 'make test'],
    ['mise exec node@20 python@3 -- node -v', 'node -v'],
    ['aws-vault exec prod -- aws s3 ls', 'aws s3 ls'],
    ['aws-vault exec prod aws s3 ls', 'aws s3 ls'],
    ['appraisal rails-7 rspec', 'rspec'],
    ['gosu app rm -rf /data', 'rm -rf /data'],
    ['runuser -u app -- ls', 'ls'],
    ['cargo msrv find -- cargo check', 'cargo check'],
    ['nix develop -c make build', 'make build'],
  ])('%s runs %s', (line, inner) => {
    expect(run(line)?.commands.map((c) => c.argv.join(' '))).toEqual([inner]);
  });

  it('reads command lines given as operands or option values as shell', () => {
    expect(runnerCommands('hyperfine', ['hyperfine', '--prepare', 'make clean', '-w', '3', 'make', 'make -j4'], Array(7).fill(false))?.code.map((c) => c.text)).toEqual([
      'make clean',
      'make',
      'make -j4',
    ]);
    expect(runnerCommands('nix-shell', ['nix-shell', '-p', 'jq', '--run', 'jq . a.json'], Array(5).fill(false))).toEqual({ commands: [], code: [{ text: 'jq . a.json', via: 'nix-shell --run' }] });
    expect(runnerCommands('watchexec', ['watchexec', 'npm test && rm -rf dist'], [false, false])?.code.map((c) => c.text)).toEqual(['npm test && rm -rf dist']);
  });

  it('runs nothing when the verb is another or no command follows', () => {
    expect(run('npm install left-pad')).toBeNull();
    expect(run('npm run exec')).toBeNull();
    expect(run('mise exec node@20')).toEqual({ commands: [], code: [] });
    expect(run('appraisal install')).toEqual({ commands: [], code: [] });
    expect(run('nodemon app.js')).toEqual({ commands: [], code: [] });
    expect(run('git status')).toBeNull();
  });

  it('keeps the runner itself and adds what it runs, shells and wrappers read as usual', () => {
    expect(programs('npx rm -rf /')).toEqual(['npx rm -rf /', 'rm -rf /']);
    expect(programs("dotenv bash -c 'ls && rm -rf /'")).toEqual(["dotenv bash -c ls && rm -rf /", 'bash -c ls && rm -rf /', 'ls', 'rm -rf /']);
    expect(programs("tmux pipe-pane -o 'cat >> pane.log'")).toEqual(["tmux pipe-pane -o cat >> pane.log", 'cat']);
  });

  it('reads the GNU tools Homebrew names with a g as those tools', () => {
    expect(analyseShellCommand('grm -rf /tmp/x').segments[0]!.name).toBe('rm');
    expect(analyseShellCommand('gtimeout 5 grm -rf /tmp/x').segments[0]!.name).toBe('rm');
    expect(analyseShellCommand('gzip a.txt').segments[0]!.name).toBe('gzip');
    expect(analyseShellCommand('git status').segments[0]!.name).toBe('git');
  });
});
