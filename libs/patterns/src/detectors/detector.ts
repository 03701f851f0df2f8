import type { PatternType, Severity } from '@warden/contracts';
import type { Step } from '../action-step.js';
import type { PatternSettings } from '../detector-settings.js';
import type { PathMatcher } from '@warden/actions';
import type { ProjectKnowledge } from '@warden/project-knowledge';
import type { SessionState } from '../session-state.js';

/** What a detector found in the session's windows now; the episode logic decides whether it is reported. */
export interface Finding {
  severity: Severity;
  confidence: number;
  /** Overrides the detector's configured impact factor when the case is worse than usual (secrets). */
  impact?: number;
  description: string;
  evidence: string[];
  details: Record<string, unknown>;
  /** Size of the evidence (repetitions, paths, growth); growth by the escalation factor re-reports. */
  magnitude: number;
}

/** The session as the detectors see it: its state, settings, knowledge and derived scope. */
export interface SessionView {
  state: SessionState;
  settings: PatternSettings;
  knowledge?: ProjectKnowledge;
  /** Steps of the window whose proposal and outcome both arrived, in order. */
  completed: Step[];
  /** The completed steps and those the reviewer blocked (attempted, never run), in order. */
  attempted: Step[];
  /** Whether a path is in the session's declared scope (cwd, expected paths); undefined when nothing was declared. */
  inScope?: PathMatcher;
  home?: string;
}

export type Detector = (view: SessionView) => Finding | undefined;

export type Detectors = Record<PatternType, Detector>;

export const confidenceFrom = (base: number, extra: number) => Math.round(Math.min(0.99, base + extra) * 100) / 100;

const RANK = { low: 0, medium: 1, high: 2, critical: 3 } as const;

/** The more severe of two findings of one detector (the first on a tie). */
export const worse = (a: Finding | undefined, b: Finding | undefined) => (!a ? b : !b ? a : RANK[b.severity] > RANK[a.severity] ? b : a);

/** The last `n` action ids: evidence stays within the contract's bounds and the intervention's reach. */
export const lastIds = (ids: readonly string[], n = 50) => ids.slice(-n);
