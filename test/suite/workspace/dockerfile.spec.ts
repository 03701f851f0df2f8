// The shared Dockerfile's two lines about Node options, run as the image runs them (no Docker engine
// here): the build stage writes an app's package.json "nodeOptions" to apps/<app>/node-options, and the
// entrypoint starts node with them. What the benchmark measures is then how the container runs.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeOptionsOf } from '@warden/local-runtime';
import { ROOT } from './compose.fixture.js';

const DOCKERFILE = readFileSync(join(ROOT, 'deploy', 'docker', 'Dockerfile'), 'utf8');

/** The shell command of the build stage's line that writes node-options, with $APP left to the shell. */
function extractionCommand(): string {
  const line = DOCKERFILE.split('\n').find((l) => l.includes('/node-options"') && l.includes('node -p'));
  if (!line) throw new Error('the Dockerfile writes no apps/$APP/node-options');
  return line.replace(/^\s*&&\s*/, '').replace(/\s*\\$/, '');
}

function entrypoint(): string[] {
  const line = DOCKERFILE.split('\n').find((l) => l.startsWith('ENTRYPOINT '));
  return JSON.parse(line!.slice('ENTRYPOINT '.length)) as string[];
}

describe('Dockerfile: Node options of the app', () => {
  let image: string;
  beforeEach(() => {
    image = mkdtempSync(join(tmpdir(), 'warden-image-'));
  });
  afterEach(() => rmSync(image, { recursive: true, force: true }));

  /** Lays out /out as the build stage does for `app`, with a main.js that prints how node was started. */
  function build(app: string): void {
    mkdirSync(join(image, 'apps', app, 'dist'), { recursive: true });
    cpSync(join(ROOT, 'apps', app, 'package.json'), join(image, 'apps', app, 'package.json'));
    writeFileSync(join(image, 'apps', app, 'dist', 'main.js'), 'console.log(JSON.stringify({ execArgv: process.execArgv, argv: process.argv.slice(2) }));\n');
    // The build stage runs in /app with the app's package.json at apps/$APP and writes to /out.
    const command = extractionCommand().replaceAll('/out/', `${image}/`);
    const result = spawnSync('/bin/sh', ['-c', command], { cwd: image, env: { ...process.env, APP: app }, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  }

  function start(app: string, args: string[]): { execArgv: string[]; argv: string[] } {
    const [shell, ...rest] = entrypoint();
    const result = spawnSync(shell!, [...rest, ...args], { cwd: image, env: { ...process.env, APP: app }, encoding: 'utf8' });
    expect(result.status).toBe(0);
    return JSON.parse(result.stdout) as { execArgv: string[]; argv: string[] };
  }

  it("starts the reviewer with the options its package.json lists, the same that warden up and the benchmark use", () => {
    build('reviewer');
    expect(start('reviewer', []).execArgv).toEqual(nodeOptionsOf(ROOT, 'reviewer'));
    expect(nodeOptionsOf(ROOT, 'reviewer').length).toBeGreaterThan(0);
  });

  it('starts an app without options as plain node, its arguments passed on', () => {
    build('cli');
    expect(start('cli', ['provision', '--partitions', '8'])).toEqual({ execArgv: [], argv: ['provision', '--partitions', '8'] });
  });
});
