import { resolvePath } from '@warden/actions';
import type { Severity } from '@warden/contracts';
import { BASE_RISK } from '../parsing/intent.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import type { ReviewSession } from '../session/review-session.js';
import type { RuleFinding } from '../rules/review-rule.js';
import { isHarmlessRead } from '../rules/scope-rules.js';
import { commandName, nonOptions } from '../parsing/command-facts.js';

export interface RiskThresholds {
  low_threshold: number;
  medium_threshold: number;
  critical_threshold: number;
}

export interface RiskModifier {
  name: 'scope' | 'repetition' | 'privilege' | 'pattern';
  value: number;
  detail: string;
}

export interface RiskAnalysis {
  score: number;
  severity: Severity;
  /** Intents, modifiers that applied (out_of_scope, repeated_failure, privileged, pattern:<type>) and rule factors. */
  factors: string[];
  base: number;
  modifiers: RiskModifier[];
}

/** Seed 001's bands: below low_threshold low, below medium_threshold medium, below critical_threshold high. */
export function severityOf(score: number, thresholds: RiskThresholds): Severity {
  if (score >= thresholds.critical_threshold) return 'critical';
  if (score >= thresholds.medium_threshold) return 'high';
  if (score >= thresholds.low_threshold) return 'medium';
  return 'low';
}

const PATTERN_RISK: Record<Severity, number> = { low: 0.05, medium: 0.1, high: 0.2, critical: 0.3 };

/**
 * Seed 001's risk calculator: the base risk of the action's riskiest intent plus the scope, repetition,
 * privilege and pattern modifiers, capped at 1. Rule findings can only raise the score.
 */
export class RiskCalculator {
  constructor(private readonly thresholds: RiskThresholds) {}

  calculate(
    action: ParsedAction,
    session: ReviewSession,
    inScope: (path: string) => boolean,
    findings: readonly RuleFinding[],
    now: number,
  ): RiskAnalysis {
    const base = Math.max(...action.intents.map((i) => BASE_RISK[i]));
    const modifiers: RiskModifier[] = [];

    // Reading a toolchain's files (`source "$HOME/.cargo/env"`) is how a build is set up, not a step out of the project.
    // A directory the line only enters (`cd ../stack && docker compose ps`) says where it runs, not what it touches
    // (read_outside_project warns of the visit). A line that writes there (`cd .. && rm -rf build`) touches it.
    const entered = action.writtenPaths.length ? NONE : enteredDirectories(action);
    const outside = action.paths.filter((p) => !inScope(p) && !((isHarmlessRead(p) || entered.has(p)) && !action.writtenPaths.includes(p)));
    // A line that changes no file and only looks out there gets read_outside_project's warning: added in full to an
    // unknown program's risk beside it (`mytool status && cat ~/.config/mytool/x.toml`), it alone would make the line
    // critical. A line that writes anything may write there (`builtin cd .. && rm -rf build`, a link to it).
    const writes = action.writtenPaths.length > 0;
    if (outside.length) modifiers.push({ name: 'scope', value: writes ? 0.3 : 0.1, detail: `${writes ? '' : 'reads '}outside the expected paths: ${outside.slice(0, 3).join(', ')}` });

    const failures = session.failuresSinceChange(action.key);
    if (failures) {
      const value = failures === 1 ? 0.1 : failures === 2 ? 0.2 : 0.4;
      modifiers.push({ name: 'repetition', value, detail: `the same action failed ${failures} time${failures === 1 ? '' : 's'} before` });
    }

    if (action.privileged) modifiers.push({ name: 'privilege', value: 0.2, detail: 'runs with administrator rights' });

    const patterns = session.activePatterns(now);
    if (patterns.length) {
      const worst = patterns.reduce((a, b) => (PATTERN_RISK[b.severity] * b.confidence > PATTERN_RISK[a.severity] * a.confidence ? b : a));
      // A pattern says the session is in trouble, not what is wrong with this action: it raises caution but never by
      // itself makes an action critical (always blocked). Deleting the project's own data after a kill escalation
      // is judged as that deletion is; a block needs evidence about the action (a rule, a critical side effect).
      const before = base + modifiers.reduce((sum, m) => sum + m.value, 0);
      const room = Math.max(0, Math.floor((this.thresholds.critical_threshold - 0.01 - before) * 100) / 100);
      const value = Math.min(Math.round(PATTERN_RISK[worst.severity] * Math.max(worst.confidence, 0.5) * 100) / 100, before >= this.thresholds.critical_threshold ? Infinity : room);
      modifiers.push({ name: 'pattern', value, detail: `${worst.type} (${worst.severity}) reported on this session` });
    }

    const modified = Math.min(1, base + modifiers.reduce((sum, m) => sum + m.value, 0));
    const score = Math.max(modified, ...findings.map((f) => f.score));
    const factors = new Set<string>(action.intents);
    for (const modifier of modifiers) {
      if (modifier.name === 'scope') factors.add('out_of_scope');
      if (modifier.name === 'repetition') factors.add('repeated_failure');
      if (modifier.name === 'privilege') factors.add('privileged');
    }
    for (const pattern of patterns) factors.add(`pattern:${pattern.type}`);
    for (const finding of findings) for (const factor of finding.factors) factors.add(factor);
    return { score: Math.round(score * 1000) / 1000, severity: severityOf(score, this.thresholds), factors: [...factors].slice(0, 64), base, modifiers };
  }
}

const NONE: ReadonlySet<string> = new Set();

/** Commands that only change the directory the rest of the line runs in. */
const CHANGE_DIRECTORY = new Set(['cd', 'pushd', 'chdir', 'set-location', 'sl']);

/** The directories a line's `cd` moves into here (not on a remote host), resolved as the action's paths are. */
function enteredDirectories(action: ParsedAction): Set<string> {
  const entered = new Set<string>();
  for (const segment of action.segments) {
    if (segment.remoteHost !== undefined || !CHANGE_DIRECTORY.has(commandName(segment).toLowerCase())) continue;
    // cmd's `cd /d X:\dir` switch is no directory.
    for (const dir of nonOptions(segment.argv)) if (!/^\/[a-z]$/i.test(dir)) entered.add(resolvePath(dir, action.cwd));
  }
  return entered;
}
