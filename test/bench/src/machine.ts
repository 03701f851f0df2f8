import { execFileSync } from 'node:child_process';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { natsServerBinary } from '@warden/local-runtime';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  platform: string;
  kernel: string;
  node: string;
  natsServer: string;
  natsServerBinary: string;
  /** 1-minute load average when the run started: other work on the machine skews the figures. */
  loadAverageAtStart: number;
  gitCommit?: string;
  gitDirty?: boolean;
}

function run(command: string, args: string[], cwd?: string): string | undefined {
  try {
    return execFileSync(command, args, { encoding: 'utf8', cwd, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

export function machineInfo(workspaceRoot: string): MachineInfo {
  const binary = natsServerBinary();
  const commit = run('git', ['rev-parse', '--short', 'HEAD'], workspaceRoot);
  const status = run('git', ['status', '--porcelain', '--untracked-files=no'], workspaceRoot);
  return {
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    platform: platform(),
    kernel: release(),
    node: process.version,
    natsServer: run(binary, ['--version']) ?? 'unknown',
    natsServerBinary: binary,
    loadAverageAtStart: Math.round(loadavg()[0]! * 100) / 100,
    ...(commit ? { gitCommit: commit, gitDirty: !!status } : {}),
  };
}
