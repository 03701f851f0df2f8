import { setPriority } from 'node:os';
import { appManifest } from './node-options.js';

/**
 * What an app's process is to the agents: `decision` when an agent waits for it (the reviewer, the gate,
 * the gateway), `background` when it watches beside the decision (patterns, budgets, interventions, the
 * ladder, the audit). Declared as `cpuPriority` in `apps/<app>/package.json`; `decision` when absent.
 */
export type CpuPriority = 'decision' | 'background';

/** The nice value of a background service on one machine: the scheduler runs the decision path first. */
export const BACKGROUND_NICENESS = 19;

export function cpuPriorityOf(root: string, app: string): CpuPriority {
  const { file, manifest } = appManifest(root, app);
  const cpuPriority = manifest['cpuPriority'];
  if (cpuPriority === undefined || cpuPriority === 'decision') return 'decision';
  if (cpuPriority === 'background') return 'background';
  throw new Error(`${file}: "cpuPriority" holds ${JSON.stringify(cpuPriority)}: it is "decision" or "background"`);
}

/**
 * Lowers a background service's process to BACKGROUND_NICENESS. Where this machine refuses (a
 * container without the right), the process keeps its priority: a slower decision, not a failure.
 */
export function applyCpuPriority(pid: number, priority: CpuPriority): boolean {
  if (priority !== 'background') return false;
  try {
    setPriority(pid, BACKGROUND_NICENESS);
    return true;
  } catch {
    return false;
  }
}
