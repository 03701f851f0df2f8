import { PATTERN_TYPES, type Severity } from '@warden/contracts';
import type { ModelPrice } from '@warden/pricing';

/** Whether a detector's patterns are actionable (`enforce`) or only counted and marked `shadow`. */
export type DetectorMode = 'enforce' | 'shadow';

/** The count at which a pattern is reported at each severity; a severity left out is skipped. */
export type SeverityLadder = Partial<Record<Severity, number>>;

export interface DetectorToggle {
  enabled: boolean;
  mode: DetectorMode;
  /** Impact factor of the pattern (0-10), the controller's `(1 + impact_factor)` weight (seed 000). */
  impact: number;
}

export interface PatternSettings {
  window: {
    /** Actions kept per session (the count window); older ones drop out. */
    max_actions: number;
    /** Actions older than this drop out (the time window). */
    max_age_ms: number;
    /** Agent timestamps later than the stored time by more than this are replaced by the stored time. */
    max_clock_skew_ms: number;
  };
  episode: {
    /** Evaluations in a row without the pattern that end its episode; the next occurrence is a new one. */
    quiet_evaluations: number;
    /** Evidence that grew by this factor since the last report re-reports the episode one severity higher. */
    escalation_growth: number;
  };
  repetitive_errors: DetectorToggle & { severity: SeverityLadder };
  polling_loop: DetectorToggle & { severity: SeverityLadder };
  scope_creep: DetectorToggle & {
    severity: SeverityLadder;
    /** Paths outside the session's scope that are never scope creep: toolchains, caches, temporary files. */
    ignored_paths: string[];
    /** File names and paths that hold secrets. */
    secret_paths: string[];
  };
  goal_drift: DetectorToggle & {
    severity: SeverityLadder;
    /** Words of a goal that say nothing about what it is about. */
    ignored_goal_words: string[];
  };
  resource_spiral: DetectorToggle & {
    /** Length of the current and of the previous window whose rates are compared. */
    window_ms: number;
    /** Growth (current rate / previous rate) at which a rate counts as spiralling. */
    growth: { medium: number; high: number; critical: number };
    /** Rates below these never spiral, however fast they grow (per minute; background processes: running). */
    floors: { file_operations_per_min: number; tokens_per_min: number; cost_usd_per_min: number; background_processes: number };
    /** Levels that are a spiral whatever their growth. */
    ceilings: { file_operations_per_min: number; tokens_per_min: number; cost_usd_per_min: number; background_processes: number };
    /** USD per 1,000 tokens by model, laid over Warden's price table (@warden/pricing, shared with the breaker). */
    pricing: Record<string, ModelPrice>;
  };
  hallucination: DetectorToggle & { severity: SeverityLadder; window_actions: number };
  installation_trap: DetectorToggle;
  bypass_trap: DetectorToggle;
  complexity_trap: DetectorToggle;
  assumption_trap: DetectorToggle & {
    /** Distinct guessed local endpoints after a connection failure that make an assumption trap. */
    guessed_endpoints: number;
  };
  /** How far after a failure (in actions) an escalation still counts as a reaction to it. */
  traps: { reaction_actions: number };
  stagnation: DetectorToggle & { severity: SeverityLadder };
  /**
   * What the agent says when it ends a turn, held against what it did (detectors/claims.ts): successes its
   * own checks or its user contradicted are hallucination, failures blamed on the code before its change
   * without a look at that code are an assumption trap; rounds of changes the user says still do not work are
   * stagnation (real agents report no progress of their own). Each ladder counts such claims or rounds.
   */
  claims: { false_success: { severity: SeverityLadder }; unchecked_blame: { severity: SeverityLadder }; disputed_rounds: { severity: SeverityLadder } };
  /** Project knowledge files (seed 004 format, as deploy/reviewer/knowledge.toml) whose known issues are matched. */
  knowledge_files: string[];
}

/** One detector per pattern type of the contracts. */
export const DETECTOR_NAMES = PATTERN_TYPES;

const MINUTE = 60_000;
const enforce = (impact: number): DetectorToggle => ({ enabled: true, mode: 'enforce', impact });

/** Every default of the pattern detector, in one place; deploy/pattern-detector/patterns.yaml repeats them. */
export const DEFAULT_PATTERN_SETTINGS: PatternSettings = {
  window: { max_actions: 64, max_age_ms: 30 * MINUTE, max_clock_skew_ms: 5_000 },
  episode: { quiet_evaluations: 3, escalation_growth: 3 },
  // Critical is what an operator stops a session for (emergency_stop.min_severity): a loop, drift or a
  // wrong guess is corrected, rolled back or throttled, and its ladder ends at high. Copying secrets out,
  // a runaway spiral and a trap that keeps escalating still reach critical.
  repetitive_errors: { ...enforce(0.3), severity: { medium: 3, high: 5 } },
  polling_loop: { ...enforce(0.3), severity: { low: 5, medium: 10, high: 25 } },
  scope_creep: {
    ...enforce(0.5),
    severity: { low: 1, medium: 3, high: 6 },
    // Toolchains, caches, temporary files, null devices, and the agent's own files (Claude Code keeps its
    // plans, memory, skills and transcripts under ~/.claude; every agent Warden supervises has such a place):
    // none of them is another project.
    ignored_paths: [
      '/usr/**', '/opt/**', '/tmp/**', '/var/tmp/**', '/private/tmp/**', '/var/folders/**', '/private/var/folders/**', '/dev/**', '/proc/**', '**/nul',
      '**/node_modules/**', '**/site-packages/**', '**/.venv/**',
      '~/.cache/**', '~/.npm/**', '~/.pnpm-store/**', '~/.yarn/**', '~/.bun/**', '~/.nvm/**', '~/.cargo/**', '~/.rustup/**', '~/.pyenv/**', '~/.m2/**', '~/.gradle/**', '~/go', '~/go/**', '~/sdk/**', '~/.local/bin', '~/.local/bin/**', '/snap/**', '~/Library/Caches/**',
      '~/appdata/local/temp/**', 'c:/windows/temp/**',
      '~/.claude/**', '~/.claude.json', '~/.codex/**', '~/.gemini/**', '~/appdata/local/claude-cli-nodejs/**', '~/appdata/roaming/claude/**',
      '~/.cursor/**', '~/.copilot/**', '~/.factory/**', '~/.config/opencode/**', '~/.local/share/opencode/**', '~/.local/state/opencode/**', '~/Library/Logs/opencode/**',
      // The open agent skills standard's user skills (Codex, OpenCode and others read them from here).
      '~/.agents/skills/**',
    ],
    secret_paths: ['**/.env', '**/.env.*', '**/*.pem', '**/*.key', '**/id_rsa*', '**/id_ed25519*', '**/.ssh/**', '**/.aws/credentials', '**/.npmrc', '**/.netrc', '**/.pypirc', '**/.docker/config.json', '**/credentials*.json', '**/secrets.*', '**/.git-credentials'],
  },
  goal_drift: {
    ...enforce(0.4),
    severity: { medium: 4, high: 7 },
    ignored_goal_words: ['fix', 'make', 'test', 'tests', 'file', 'files', 'code', 'issue', 'bug', 'update', 'add', 'change', 'please', 'ensure', 'should', 'when', 'that', 'this', 'with', 'from', 'into', 'failing', 'pass', 'work', 'works', 'error'],
  },
  resource_spiral: {
    ...enforce(0.6),
    window_ms: MINUTE,
    growth: { medium: 2, high: 4, critical: 8 },
    // Floors measured on real Claude Code sessions: an Opus session at work spends $0.5-2 a minute and a
    // minute often costs twice the one before; background processes that exit by themselves are never
    // counted down. Below these, growth is noise.
    floors: { file_operations_per_min: 30, tokens_per_min: 250_000, cost_usd_per_min: 2, background_processes: 8 },
    ceilings: { file_operations_per_min: 300, tokens_per_min: 3_000_000, cost_usd_per_min: 10, background_processes: 16 },
    pricing: {},
  },
  // Three misses in fifteen actions is how a real session finds out what a machine has (no pip, no curl, the
  // venv elsewhere): four make a pattern, reads counting half.
  hallucination: { ...enforce(0.4), severity: { medium: 4, high: 6 }, window_actions: 15 },
  installation_trap: enforce(0.5),
  bypass_trap: enforce(0.6),
  complexity_trap: enforce(0.4),
  assumption_trap: { ...enforce(0.4), guessed_endpoints: 3 },
  traps: { reaction_actions: 8 },
  stagnation: { ...enforce(0.3), severity: { medium: 3, high: 5 } },
  // One wrong claim is worth a word to the agent; two make a habit the operator should see.
  claims: { false_success: { severity: { low: 1, medium: 2, high: 4 } }, unchecked_blame: { severity: { low: 1, medium: 3 } }, disputed_rounds: { severity: { medium: 3, high: 5 } } },
  knowledge_files: [],
};

const ORDER: Severity[] = ['low', 'medium', 'high', 'critical'];

/** The highest severity whose count `count` reaches, or undefined below the lowest. */
export function severityFor(ladder: SeverityLadder, count: number): Severity | undefined {
  let found: Severity | undefined;
  for (const severity of ORDER) {
    const at = ladder[severity];
    if (at !== undefined && count >= at) found = severity;
  }
  return found;
}

/** The highest severity a ladder reaches: episodes that keep growing are not reported above it. */
export function ladderTop(ladder: SeverityLadder): Severity {
  return [...ORDER].reverse().find((s) => ladder[s] !== undefined) ?? 'critical';
}

/** The lowest count that reports anything. */
export function ladderStart(ladder: SeverityLadder): number {
  return Math.min(...ORDER.map((s) => ladder[s] ?? Infinity));
}

export function severityRank(severity: Severity): number {
  return ORDER.indexOf(severity);
}

export function severityAt(rank: number): Severity {
  return ORDER[Math.max(0, Math.min(ORDER.length - 1, rank))]!;
}
