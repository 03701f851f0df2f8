import { isWriteOrCommand, type Step } from '../action-step.js';
import { severityFor } from '../detector-settings.js';
import { checkKindOf, claimsIn, disputesFix, failedCheck, looksAtBaseline, type CheckKind } from '../turn-claims.js';
import { confidenceFrom, lastIds, type Finding, type SessionView } from './detector.js';

/**
 * What the agent said at the end of a turn, held against what it did: a success its own latest check
 * contradicts, a fix its user disputes, a failure blamed on the code before it without looking at that code.
 * Only what was found is kept (never the words: they may hold anything).
 */
export interface HeldClaim {
  kind: 'false_success' | 'unchecked_blame';
  /** When the turn ended, epoch ms. */
  at: number;
  /** What was claimed, in Warden's words ("tests pass", "fixed", "pre-existing failures"). */
  claim: string;
  /** What contradicts it, in Warden's words. */
  against: string;
  /** The actions the claim is about: the failed checks, the turn's changes. */
  evidence: string[];
}

export interface ClaimRecord {
  /** Claims found wrong or unchecked, newest last (at most MAX_HELD). */
  found: HeldClaim[];
  /** The last turn said it fixed something: the user's next request may say it did not. */
  fix?: { at: number; evidence: string[] };
  /** The last action of the session when the last turn ended: the actions after it are the next turn's. */
  turn_end?: string;
  /** Rounds of changes after which the user said it still does not work, newest last (at most MAX_HELD). */
  disputed?: { at: number; evidence: string[] }[];
}

const MAX_HELD = 8;
const MAX_EVIDENCE = 12;

const distinct = (ids: readonly string[]) => [...new Set(ids)];

const CHECK_NAMES: Record<CheckKind, string> = { test: 'tests', build: 'the build', lint: 'lint / type checks', ci: 'CI checks', deploy: 'the deployment' };

/** The steps of the turn that just ended: those after the last turn's end (all of the window when it has gone). */
function turnSteps(completed: readonly Step[], turnEnd: string | undefined): Step[] {
  const from = turnEnd ? completed.findIndex((s) => s.id === turnEnd) : -1;
  return completed.slice(from + 1);
}

/** Success claimed for a kind of check whose latest run in the session failed (and none passed after it). */
function contradicted(kinds: readonly CheckKind[], completed: readonly Step[]): { kind: CheckKind; failed: Step } | undefined {
  for (const kind of kinds) {
    for (let i = completed.length - 1; i >= 0; i--) {
      const step = completed[i]!;
      if (checkKindOf(step) !== kind) continue;
      if (failedCheck(step)) return { kind, failed: step };
      break;
    }
  }
  return undefined;
}

/**
 * A failure called pre-existing is unchecked when the session has failed checks, never set its change
 * aside to run them (git stash, a worktree, a checkout of the base), and saw none of them fail before its
 * first change.
 */
function uncheckedBlame(completed: readonly Step[]): Step[] | undefined {
  const failed = completed.filter(failedCheck);
  if (!failed.length) return undefined;
  if (completed.some(looksAtBaseline)) return undefined;
  const firstWrite = completed.findIndex((s) => s.op === 'write');
  if (firstWrite >= 0 && failed.some((s) => completed.indexOf(s) < firstWrite)) return undefined;
  return failed;
}

/** The record after a turn ended with `words`, given the session's completed steps. */
export function recordTurnEnd(record: ClaimRecord | undefined, words: string, completed: readonly Step[], at: number): ClaimRecord {
  const claims = claimsIn(words);
  const found = [...(record?.found ?? [])];
  const turn = turnSteps(completed, record?.turn_end);
  const changes = turn.filter(isWriteOrCommand).map((s) => s.id);
  const wrong = contradicted(claims.passing, completed);
  if (wrong) {
    found.push({
      kind: 'false_success',
      at,
      claim: `${CHECK_NAMES[wrong.kind]} pass`,
      against: `its latest run of ${CHECK_NAMES[wrong.kind]} failed (${wrong.failed.cmd?.slice(0, 80) ?? wrong.failed.id}) and none passed since`,
      evidence: lastIds(distinct([wrong.failed.id, ...changes.slice(-4)]), MAX_EVIDENCE),
    });
  }
  if (claims.blamesBefore) {
    const failed = uncheckedBlame(completed);
    if (failed) {
      found.push({
        kind: 'unchecked_blame',
        at,
        claim: 'failures are pre-existing or unrelated to its change',
        against: 'it never ran them on the code before its change (git stash, a worktree, the base commit)',
        evidence: lastIds(distinct([...failed.map((s) => s.id).slice(-8), ...changes.slice(-4)]), MAX_EVIDENCE),
      });
    }
  }
  const last = completed.at(-1)?.id;
  return {
    found: found.slice(-MAX_HELD),
    ...(claims.fixed && changes.length ? { fix: { at, evidence: lastIds(changes, MAX_EVIDENCE) } } : {}),
    ...(last ? { turn_end: last } : record?.turn_end ? { turn_end: record.turn_end } : {}),
    ...(record?.disputed ? { disputed: record.disputed } : {}),
  };
}

/**
 * The record after the user's next request, given the changes (writes, commands) made since the request
 * before it: a round of changes the user says still does not work is disputed, and a fix the last turn
 * claimed with it is a false success.
 */
export function recordRequest(record: ClaimRecord | undefined, request: string, at: number, changes: readonly string[]): ClaimRecord | undefined {
  const disputed = disputesFix(request);
  if (!record?.fix && !(disputed && changes.length)) return record;
  const { fix, ...rest } = record ?? { found: [] };
  if (!disputed) return rest;
  const found = fix ? [...rest.found, { kind: 'false_success' as const, at, claim: 'fixed', against: 'the user says it still does not work', evidence: fix.evidence }].slice(-MAX_HELD) : rest.found;
  const rounds = changes.length ? [...(rest.disputed ?? []), { at, evidence: lastIds([...changes], MAX_EVIDENCE) }].slice(-MAX_HELD) : rest.disputed;
  return { ...rest, found, ...(rounds ? { disputed: rounds } : {}) };
}

const ADVICE: Record<string, string> = {
  fixed: 'try what was fixed (run it, test it) before saying it works.',
  pre: 'run the failing checks without the change (git stash) before calling them pre-existing.',
  pass: 'run the check and read its result before saying it passes.',
};

function findingOf(view: SessionView, kind: HeldClaim['kind'], ladder: Parameters<typeof severityFor>[0]): Finding | undefined {
  const held = view.state.claims?.found.filter((c) => c.kind === kind) ?? [];
  const severity = severityFor(ladder, held.length);
  if (!severity) return undefined;
  const latest = held.at(-1)!;
  const advice = ADVICE[latest.claim === 'fixed' ? 'fixed' : kind === 'unchecked_blame' ? 'pre' : 'pass'];
  return {
    severity,
    confidence: confidenceFrom(0.6, 0.08 * (held.length - 1)),
    description: `${held.length} time${held.length > 1 ? 's' : ''} it said ${latest.claim} where ${latest.against}; ${advice}`,
    evidence: lastIds(distinct(held.flatMap((c) => c.evidence)), 50),
    details: { claims: held.slice(-5).map(({ claim, against, evidence }) => ({ claim, against, evidence })) },
    magnitude: held.length,
  };
}

/**
 * Rounds of changes the user came back from saying it still does not work ("still the same", "same
 * error"): the real sessions' stagnation, where no agent reports progress of its own.
 */
export function detectDisputedRounds(view: SessionView): Finding | undefined {
  const rounds = view.state.claims?.disputed ?? [];
  const ladder = view.settings.claims.disputed_rounds.severity;
  const severity = severityFor(ladder, rounds.length);
  if (!severity) return undefined;
  return {
    severity,
    confidence: confidenceFrom(0.65, 0.05 * (rounds.length - (ladder.medium ?? 3))),
    description: `${rounds.length} rounds of changes after which the user said it still does not work; the approach is not working: find the cause before changing more.`,
    evidence: lastIds(distinct(rounds.flatMap((r) => r.evidence)), 50),
    details: { disputed_rounds: rounds.length, threshold: ladder.medium ?? null },
    magnitude: rounds.length,
  };
}

/** Successes the agent claimed that its own checks or its user contradicted (hallucination). */
export function detectFalseSuccess(view: SessionView): Finding | undefined {
  return findingOf(view, 'false_success', view.settings.claims.false_success.severity);
}

/** Failures the agent called pre-existing without running them on the code before its change (assumption_trap). */
export function detectUncheckedBlame(view: SessionView): Finding | undefined {
  return findingOf(view, 'unchecked_blame', view.settings.claims.unchecked_blame.severity);
}
