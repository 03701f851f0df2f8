import { Injectable } from '@nestjs/common';
import { MetricsRegistry } from '@warden/observability';
import type { CommandRejection, LevelChange } from '@warden/ladder';

/**
 * The ladder's series. Levels are counted as agents per level: the registry refuses per-agent labels
 * (every agent would be a time series of its own); the level of one agent is in `warden ladder show`.
 */
@Injectable()
export class LadderMetrics {
  private readonly runs;
  private readonly levelChanges;
  private readonly rejectedCommands;
  private readonly duplicates;
  private readonly conflicts;
  private readonly agentsAtLevel;

  constructor(metrics: MetricsRegistry) {
    this.runs = metrics.counter({ name: 'warden_ladder_runs_recorded_total', help: 'Run outcomes (session.ended) added to track records, by status.', labelNames: ['status'] });
    this.levelChanges = metrics.counter({
      name: 'warden_ladder_level_changes_total',
      help: 'Changes of an automation level or pin, by direction (up, down, none for a pin change) and cause.',
      labelNames: ['direction', 'cause'],
    });
    this.rejectedCommands = metrics.counter({
      name: 'warden_ladder_commands_rejected_total',
      help: 'Operator commands the ladder refused (dead-lettered with the reason), by command and reason.',
      labelNames: ['command', 'reason'],
    });
    this.duplicates = metrics.counter({
      name: 'warden_ladder_duplicates_total',
      help: 'Messages handled before and recognised by their id: nothing counted twice.',
      labelNames: ['type'],
    });
    this.conflicts = metrics.counter({
      name: 'warden_ladder_record_conflicts_total',
      help: 'Track record writes retried because another replica wrote the record first (compare-and-set).',
    });
    this.agentsAtLevel = metrics.gauge({ name: 'warden_ladder_agents', help: 'Agents at each automation level, from warden_automation_levels.', labelNames: ['level'] });
  }

  runRecorded(status: string): void {
    this.runs.inc({ status });
  }

  levelChanged(change: LevelChange): void {
    const direction = change.to > change.from ? 'up' : change.to < change.from ? 'down' : 'none';
    this.levelChanges.inc({ direction, cause: change.cause });
  }

  commandRejected(command: string, reason: CommandRejection | 'no_agent'): void {
    this.rejectedCommands.inc({ command, reason });
  }

  duplicate(type: string): void {
    this.duplicates.inc({ type });
  }

  conflict(): void {
    this.conflicts.inc();
  }

  agentsPerLevel(counts: readonly number[]): void {
    counts.forEach((count, level) => this.agentsAtLevel.set({ level: String(level) }, count));
  }
}
