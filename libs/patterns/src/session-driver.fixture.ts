import type { PhaseProgress } from '@warden/contracts';
import { resolvePatternSettings } from './detector-settings-file.js';
import type { PatternSettings } from './detector-settings.js';
import type { ProjectKnowledge } from '@warden/project-knowledge';
import { SessionPatterns, type PatternReport, type SessionStart } from './session-patterns.js';
import type { SessionSnapshot } from './session-state.js';

export const T0 = Date.parse('2026-03-02T09:00:00Z');

export interface Outcome {
  status?: 'success' | 'error';
  error?: string;
  errorClass?: string;
  output?: string;
  files?: string[];
  tokens?: number;
  progress?: PhaseProgress;
  cost?: number;
}

/**
 * Drives one session through SessionPatterns the way the service does (proposal, then outcome) and
 * collects the reports — for the detectors' unit tests.
 */
export class SessionDriver {
  readonly reports: PatternReport[] = [];
  patterns: SessionPatterns;
  now = T0;
  private sequence = 0;

  constructor(
    readonly settings: PatternSettings = resolvePatternSettings(),
    start: SessionStart = { context: { goal: 'Fix the cart total in src/cart.ts', cwd: '/home/dev/projects/cart', expected_paths: ['src/**', 'test/**'] }, phase: 'implementation' },
    readonly knowledge: ProjectKnowledge[] = [],
  ) {
    this.patterns = SessionPatterns.open(settings, knowledge, 'agent-1', 'session-1', T0);
    this.reports.push(...this.patterns.started(T0, start));
  }

  static with(overrides: unknown, start?: SessionStart, knowledge?: ProjectKnowledge[]): SessionDriver {
    return new SessionDriver(resolvePatternSettings(overrides), start, knowledge);
  }

  /** Runs one action `seconds` after the previous one; returns its id. */
  run(tool: string, input: Record<string, unknown>, outcome: Outcome = {}, seconds = 5): string {
    const id = `a${++this.sequence}`;
    this.now += seconds * 1000;
    this.reports.push(...this.patterns.actionProposed(this.now, { action_id: id, kind: 'tool_use', tool, input }));
    this.reports.push(
      ...this.patterns.outcomeReported(
        this.now + 500,
        {
          action_id: id,
          status: outcome.status ?? (outcome.error ? 'error' : 'success'),
          ...(outcome.error ? { error: { message: outcome.error, ...(outcome.errorClass ? { class: outcome.errorClass } : {}) } } : {}),
          ...(outcome.output !== undefined ? { output_excerpt: outcome.output } : {}),
          ...(outcome.files ? { files_touched: outcome.files } : {}),
          ...(outcome.tokens ? { tokens: { prompt: outcome.tokens, completion: 0 } } : {}),
          ...(outcome.progress ? { progress: outcome.progress } : {}),
        },
        outcome.cost,
      ),
    );
    return id;
  }

  bash(command: string, outcome: Outcome = {}, seconds = 5): string {
    return this.run('Bash', { command }, outcome, seconds);
  }

  edit(path: string, outcome: Outcome = {}, seconds = 5): string {
    return this.run('Edit', { file_path: path, old_string: 'a', new_string: `b${this.sequence}` }, { files: [path], ...outcome }, seconds);
  }

  read(path: string, outcome: Outcome = {}, seconds = 5): string {
    return this.run('Read', { file_path: path }, outcome, seconds);
  }

  /** The agent ends its turn with these words. */
  says(words: string, seconds = 5): void {
    this.now += seconds * 1000;
    this.reports.push(...this.patterns.turnEnded(this.now, words));
  }

  /** The user asks again (a follow-up prompt). */
  asks(request: string, seconds = 5): void {
    this.now += seconds * 1000;
    this.reports.push(...this.patterns.goalChanged(this.now, request));
  }

  of(type: PatternReport['pattern_type']): PatternReport[] {
    return this.reports.filter((r) => r.pattern_type === type);
  }

  last(type: PatternReport['pattern_type']): PatternReport | undefined {
    return this.of(type).at(-1);
  }

  /** Continues from a JSON copy of the snapshot, as a restarted replica does from the KV bucket. */
  restart(): void {
    const stored = JSON.parse(JSON.stringify(this.patterns.snapshot)) as SessionSnapshot;
    this.patterns = SessionPatterns.restore(this.settings, this.knowledge, stored);
  }
}
