import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import type { NatsSettings } from '@warden/messaging';

const WARDEN = join(WORKSPACE_ROOT, 'apps/cli/bin/warden.js');

/** Runs the built `warden` command as a user would, connected as `nats`, with plain output. */
export function warden(args: string[], nats: NatsSettings): Promise<{ code: number; stdout: string; stderr: string }> {
  // Plain output, as in a pipe; test runners set FORCE_COLOR, which Node refuses to combine with NO_COLOR.
  const { FORCE_COLOR: _forced, ...inherited } = process.env;
  const env = { ...inherited, NO_COLOR: '1', NATS_URL: nats.servers, NATS_USER: nats.user ?? '', NATS_PASSWORD: nats.password ?? '' };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [WARDEN, ...args], { env, cwd: WORKSPACE_ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
