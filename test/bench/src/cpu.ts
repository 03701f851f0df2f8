import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** Clock ticks per second of /proc's CPU times; 100 on practically every Linux. */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU seconds a process has used so far; undefined when it cannot be read (not Linux, gone). */
export function cpuSeconds(pid: number): number | undefined {
  if (pid === process.pid) {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces; fields after it are counted from its closing paren.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

export type CpuShares = Record<string, number | null>;

/**
 * CPU used by each watched process over an interval, as a percentage of one core (200% = both cores of
 * a 2-core machine), so one can see which process saturates the machine.
 */
export class CpuMeter {
  private start = new Map<string, number | undefined>();
  private startedAt = 0;

  constructor(private readonly pids: () => Record<string, number | undefined>) {}

  begin(): void {
    this.startedAt = performance.now();
    this.start = new Map(Object.entries(this.pids()).map(([name, pid]) => [name, pid === undefined ? undefined : cpuSeconds(pid)]));
  }

  end(): CpuShares {
    const { seconds, used } = this.used();
    const shares: CpuShares = {};
    for (const [name, cpu] of Object.entries(used)) shares[name] = cpu === null || seconds <= 0 ? null : Math.round((cpu / seconds) * 1000) / 10;
    return shares;
  }

  /** CPU milliseconds per action of each process since `begin`, `actions` being what the work was (see CpuPerAction). */
  perAction(actions: number): CpuPerAction {
    const { seconds, used } = this.used();
    const byProcessMs: Record<string, number | null> = {};
    let total = 0;
    for (const [name, cpu] of Object.entries(used)) {
      const value = cpu === null || actions <= 0 ? null : (cpu * 1000) / actions;
      byProcessMs[name] = value === null ? null : Math.round(value * 1000) / 1000;
      total += value ?? 0;
    }
    return { actions, seconds: Math.round(seconds * 10) / 10, totalMs: Math.round(total * 1000) / 1000, byProcessMs };
  }

  /** Wall seconds since `begin`, and the CPU seconds each process used meanwhile (null: not readable). */
  private used(): { seconds: number; used: Record<string, number | null> } {
    const used: Record<string, number | null> = {};
    for (const [name, pid] of Object.entries(this.pids())) {
      const before = this.start.get(name);
      const after = pid === undefined ? undefined : cpuSeconds(pid);
      used[name] = before === undefined || after === undefined ? null : after - before;
    }
    return { seconds: (performance.now() - this.startedAt) / 1000, used };
  }
}

/**
 * CPU milliseconds each process spent per action over a stretch of work that `actions` caused (from the
 * load's start until the suite has handled all of it), and the sum: what one action costs the machine,
 * whatever the phase's rate and however far behind a service fell during it.
 */
export interface CpuPerAction {
  actions: number;
  seconds: number;
  totalMs: number;
  byProcessMs: Record<string, number | null>;
}
