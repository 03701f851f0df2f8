import type { Phase, PatternType, Severity, VerdictKind } from '@warden/contracts';
import { isProtectedPath } from '../parsing/command-facts.js';
import { isHomeRoot } from '@warden/actions';
import type { Intent } from '../parsing/intent.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import type { ProjectKnowledge } from '@warden/project-knowledge';
import { pastCommandOf, type PastCommand } from '../validation/past-command.js';
import { applyGitStep, gitStepCounts, type RepositorySecrets } from '../rules/staged-secrets.js';

/** What the agent declared about its task (session.started, or the context sent with an action). */
export interface DeclaredContext {
  goal?: string;
  expectedPaths: string[];
  constraints: string[];
  cwd?: string;
  environment?: string;
  phase?: Phase;
  /** claude-code, openhands, ...: pipelines can be chosen by it. */
  agentKind?: string;
  /** Paths the user named in follow-up requests (the goal keeps only the latest one): the task's, wherever they lie. */
  namedPaths: string[];
}

/** One action of the session as the reviewer remembers it. */
export interface ActionRecord {
  actionId: string;
  key: string;
  tool: string;
  intent: Intent;
  intents: Intent[];
  paths: string[];
  writtenPaths: string[];
  /** URLs a tool requested (a fetch); a shell command's requests are in `shell.targets`. */
  urls: readonly string[];
  /** A shell command: what later reviews ask of it (its text is not kept). */
  shell?: PastCommand;
  readOnly: boolean;
  verdict?: VerdictKind;
  status: 'pending' | 'success' | 'error';
  error?: { message: string; class?: string };
  at: number;
}

export interface ActivePattern {
  type: PatternType;
  severity: Severity;
  confidence: number;
  shadow: boolean;
  at: number;
}

export interface OutcomeReport {
  actionId: string;
  status: 'success' | 'error';
  error?: { message: string; class?: string };
}

const CONNECTION_ERROR_CLASSES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);
const CONNECTION_ERROR_TEXT =
  /connection refused|could not connect|failed to connect|unable to connect|can(no|')t connect|connect ECONN|timed? ?out|no route to host|name or service not known|getaddrinfo|network is unreachable|connection reset|ERR_CONNECTION|net::ERR_|socket hang up|server (is )?not running|browserType\.connect|connectOverCDP/i;

function sameContext(a: DeclaredContext, b: DeclaredContext): boolean {
  const sameList = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  return (
    a.goal === b.goal &&
    a.cwd === b.cwd &&
    a.environment === b.environment &&
    a.phase === b.phase &&
    a.agentKind === b.agentKind &&
    sameList(a.expectedPaths, b.expectedPaths) &&
    sameList(a.constraints, b.constraints)
  );
}

/** A failure that says "could not reach something" (seed 004's `is_connection_failure`). */
export function isConnectionFailure(record: Pick<ActionRecord, 'status' | 'error'>): boolean {
  if (record.status !== 'error' || !record.error) return false;
  return (!!record.error.class && CONNECTION_ERROR_CLASSES.has(record.error.class)) || CONNECTION_ERROR_TEXT.test(record.error.message);
}

const MAX_APPROVED_PATHS = 64;
const MAX_NAMED_PATHS = 32;
const MAX_WORK_ROOTS = 64;
/** Repositories whose credentials are remembered past the history window. */
const MAX_SETTLED_REPOSITORIES = 16;
const NO_URLS: readonly string[] = Object.freeze([]);

/** How long a pattern report keeps raising the risk of the session's actions. */
export const PATTERN_MEMORY_MS = 10 * 60_000;
/** How many of a session's earlier goals stay in view. */
const MAX_EARLIER_GOALS = 32;

/**
 * What the reviewer knows about one session: the context the agent declared, the recent actions with
 * their verdicts and outcomes, the patterns reported on it, and whether it saved checkpoints. Bounded:
 * it keeps the last `historySize` actions.
 */
export class ReviewSession {
  context: DeclaredContext = { expectedPaths: [], constraints: [], namedPaths: [] };
  readonly history: ActionRecord[] = [];
  readonly patterns: ActivePattern[] = [];
  /** File-changing actions proposed and not blocked, for the file operation limit. */
  fileOperations = 0;
  checkpoints = 0;
  /** The goals the session had before its current one (the user's earlier requests), the latest last. */
  readonly earlierGoals: string[] = [];
  /** Actions reviewed in the session, however many the history still holds. */
  actionsReviewed = 0;
  /** Of those, the ones whose outcome was an error. */
  failures = 0;
  lastSeen: number;
  /** Its session.started was applied. */
  declared = false;
  /**
   * Paths outside the declared scope that a person let the agent write: an action held for approval
   * that then ran. Writing there again, and inside them, is the task's work, not a new question.
   */
  readonly approvedPaths: { path: string; within: boolean }[] = [];
  /** A session started in its home directory: the directories it read, listed, entered or created (@warden/actions workRootOf). */
  readonly workRoots: string[] = [];
  /** Worktrees the session added (their roots). */
  readonly worktrees: string[] = [];
  /** The service looked up this session's declaration on the bus already (see the reviewer's session sync). */
  declarationLookedUp = false;
  /**
   * Lookups in a row that found no outcome of this session on the bus at all (see the reviewer's session
   * sync); any outcome of the session, looked up or delivered, starts the count again.
   */
  outcomeLookupsEmpty = 0;
  /**
   * What the git calls of actions no longer in the history left in each repository (by directory): credentials
   * committed long ago stay tracked however many actions later `git add -u` stages them again.
   */
  readonly settledGitSteps = new Map<string | undefined, RepositorySecrets>();
  private readonly byActionId = new Map<string, ActionRecord>();

  constructor(
    readonly agentId: string,
    readonly sessionId: string,
    now: number,
    private readonly historySize = 100,
  ) {
    this.lastSeen = now;
  }

  /** Merges what the agent declared; later declarations win field by field. */
  declare(
    context: { goal?: string; expected_paths?: string[]; constraints?: string[]; cwd?: string },
    extra: { environment?: string; phase?: Phase; agentKind?: string } = {},
  ): void {
    const next = { ...this.context };
    if (context.goal !== undefined && context.goal !== next.goal) {
      if (next.goal) this.earlierGoals.push(next.goal);
      if (this.earlierGoals.length > MAX_EARLIER_GOALS) this.earlierGoals.shift();
      next.goal = context.goal;
    }
    if (context.expected_paths !== undefined) next.expectedPaths = [...context.expected_paths];
    if (context.constraints !== undefined) next.constraints = [...context.constraints];
    if (context.cwd !== undefined) next.cwd = context.cwd;
    if (extra.environment !== undefined) next.environment = extra.environment;
    if (extra.phase !== undefined) next.phase = extra.phase;
    if (extra.agentKind !== undefined) next.agentKind = extra.agentKind;
    // Agents may send the same context with every action; keeping the object lets scope matchers stay compiled.
    if (!sameContext(this.context, next)) this.context = next;
  }

  /** Adds paths a follow-up request named (bounded: the last MAX_NAMED_PATHS). */
  nameRequestPaths(paths: readonly string[]): void {
    const added = paths.filter((p) => !this.context.namedPaths.includes(p));
    if (added.length) this.context = { ...this.context, namedPaths: [...this.context.namedPaths, ...added].slice(-MAX_NAMED_PATHS) };
  }

  setPhase(phase: Phase): void {
    this.context = { ...this.context, phase };
  }

  /**
   * Remembers a reviewed action. A redelivered action (same id) replaces nothing. `knowledge` is the
   * project's, against which a shell command's diagnostics are judged.
   */
  recordAction(action: ParsedAction, actionId: string, verdict: VerdictKind, now: number, knowledge?: ProjectKnowledge): void {
    this.lastSeen = now;
    if (this.byActionId.has(actionId)) return;
    const shell = action.command !== undefined;
    const record: ActionRecord = {
      actionId,
      key: action.key,
      tool: action.tool,
      intent: action.intent,
      intents: action.intents,
      paths: action.paths,
      writtenPaths: action.writtenPaths,
      urls: shell ? NO_URLS : action.urls,
      readOnly: action.readOnly,
      verdict,
      status: 'pending',
      at: now,
    };
    if (shell) record.shell = pastCommandOf(action, knowledge);
    this.actionsReviewed++;
    this.history.push(record);
    this.byActionId.set(actionId, record);
    if (verdict !== 'block' && action.writtenPaths.length) this.fileOperations++;
    while (this.history.length > this.historySize) {
      const forgotten = this.history.shift()!;
      this.byActionId.delete(forgotten.actionId);
      if (forgotten.shell?.gitSteps) this.settle(forgotten);
    }
  }

  private settle(record: ActionRecord): void {
    for (const step of record.shell!.gitSteps!) {
      if (!gitStepCounts(step, record)) continue;
      let state = this.settledGitSteps.get(step.where);
      if (!state) {
        if (this.settledGitSteps.size >= MAX_SETTLED_REPOSITORIES) this.settledGitSteps.delete(this.settledGitSteps.keys().next().value);
        this.settledGitSteps.set(step.where, (state = {}));
      }
      applyGitStep(state, step);
    }
  }

  recordOutcome(outcome: OutcomeReport, now: number): void {
    this.lastSeen = now;
    this.outcomeLookupsEmpty = 0;
    const record = this.byActionId.get(outcome.actionId);
    if (!record) return;
    if (outcome.status === 'error' && record.status !== 'error') this.failures++;
    else if (outcome.status !== 'error' && record.status === 'error') this.failures--;
    record.status = outcome.status;
    if (outcome.error) record.error = outcome.error;
    if (record.verdict === 'require_approval' && outcome.status === 'success') {
      // A system directory or a whole home directory is never handed over by one approval, and a parent the
      // action only created on the way (`mkdir -p ~/Code && cp -r x ~/Code/fork`) is approved alone, not its contents.
      const written = record.writtenPaths.filter((path) => !isProtectedPath(path) && !isHomeRoot(path));
      for (const path of written) {
        const within = !written.some((other) => other.startsWith(`${path}/`));
        if (!this.approvedPaths.some((a) => a.path === path && a.within === within)) this.approvedPaths.push({ path, within });
      }
      if (this.approvedPaths.length > MAX_APPROVED_PATHS) this.approvedPaths.splice(0, this.approvedPaths.length - MAX_APPROVED_PATHS);
    }
  }

  /** Adds what a session started in its home works on; the newest are kept. */
  addWorkRoots(roots: readonly string[]): void {
    for (const root of roots) if (!this.workRoots.includes(root)) this.workRoots.push(root);
    if (this.workRoots.length > MAX_WORK_ROOTS) this.workRoots.splice(0, this.workRoots.length - MAX_WORK_ROOTS);
  }

  /** Adds worktrees of the project's repository the session added (`git worktree add ../app-fix`): the project's too. */
  addWorktrees(paths: readonly string[]): void {
    for (const path of paths) if (!this.worktrees.includes(path)) this.worktrees.push(path);
    if (this.worktrees.length > MAX_WORK_ROOTS) this.worktrees.splice(0, this.worktrees.length - MAX_WORK_ROOTS);
  }

  /** Whether a path lies in what a session started in its home works on, or in a worktree the session added. */
  inWorkRoots(path: string): boolean {
    const within = (root: string) => path === root || path.startsWith(`${root}/`);
    return this.workRoots.some(within) || this.worktrees.some(within);
  }

  /** Whether a person approved writing this path, or a directory it lies in, earlier in the session. */
  isApproved(path: string): boolean {
    return this.approvedPaths.some((approved) => path === approved.path || (approved.within && path.startsWith(`${approved.path}/`)));
  }

  recordPattern(pattern: ActivePattern): void {
    this.patterns.push(pattern);
    if (this.patterns.length > 20) this.patterns.shift();
  }

  recordCheckpoint(now: number): void {
    this.lastSeen = now;
    this.checkpoints++;
  }

  /** Earlier actions with the same key. */
  similar(key: string): ActionRecord[] {
    return this.history.filter((r) => r.key === key);
  }

  /**
   * Failures of actions with this key since the session last changed a file or installed packages: running
   * the tests again after an edit or an install checks the fix, it does not repeat the failure.
   */
  failuresSinceChange(key: string): number {
    let failures = 0;
    for (let i = this.history.length - 1; i >= 0; i--) {
      const record = this.history[i]!;
      // A change since: a file written, or packages installed (what a build or a type check finds changes with them).
      if ((record.writtenPaths.length || record.intents.includes('package_install')) && record.status === 'success' && record.key !== key) break;
      if (record.key === key && record.status === 'error') failures++;
    }
    return failures;
  }

  /** The last `limit` failed actions, newest first. */
  recentFailures(limit = 10): ActionRecord[] {
    const failures: ActionRecord[] = [];
    for (let i = this.history.length - 1; i >= 0 && failures.length < limit; i--) {
      if (this.history[i]!.status === 'error') failures.push(this.history[i]!);
    }
    return failures;
  }

  /** Actions after the given one, oldest first. */
  since(record: ActionRecord): ActionRecord[] {
    const index = this.history.indexOf(record);
    return index < 0 ? [] : this.history.slice(index + 1);
  }

  last(): ActionRecord | undefined {
    return this.history[this.history.length - 1];
  }

  /** Whether the session read (or wrote) this path before. */
  hasSeen(path: string): boolean {
    return this.history.some((r) => r.paths.includes(path));
  }

  hasRead(path: string): boolean {
    return this.history.some((r) => r.paths.includes(path) && !r.writtenPaths.includes(path));
  }

  /** Non-shadow patterns reported in the last PATTERN_MEMORY_MS. */
  activePatterns(now: number): ActivePattern[] {
    return this.patterns.filter((p) => !p.shadow && now - p.at <= PATTERN_MEMORY_MS);
  }
}
