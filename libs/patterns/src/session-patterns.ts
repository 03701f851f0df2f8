import { homeOf, isFileOfHome, isHomeRoot, isRelativePath, isUnder, orThroughMount, pathMatcher, pathsNamedIn, resolvePath, scopeIsHome, workRootOf, worktreesAddedIn, type PathMatcher } from '@warden/actions';
import { FALLBACK_MODEL, priceModelCall, type TokenUsage } from '@warden/pricing';
import { goalAfter, hasPhaseProgress, type PatternType, type Phase, type PhaseProgress, type Severity } from '@warden/contracts';
import { fingerprint } from '@warden/signatures';
import { addOutcome, fileOperations, isCompleted, isWriteOrCommand, settle, stepOfAction, type ProposedAction, type ReportedOutcome, type Step } from './action-step.js';
import { DETECTOR_NAMES, ladderTop, severityAt, severityRank, type PatternSettings, type SeverityLadder } from './detector-settings.js';
import { worse, type Detector, type Detectors, type Finding, type SessionView } from './detectors/detector.js';
import { detectAssumptionTrap, detectBypassTrap, detectComplexityTrap, detectInstallationTrap } from './detectors/escalation-traps.js';
import { detectGoalDrift } from './detectors/goal-drift.js';
import { detectHallucination } from './detectors/hallucination.js';
import { detectDisputedRounds, detectFalseSuccess, detectUncheckedBlame, recordRequest, recordTurnEnd } from './detectors/claims.js';
import { detectPollingLoop } from './detectors/polling-loop.js';
import { detectRepetitiveErrors } from './detectors/repetitive-errors.js';
import { detectResourceSpiral } from './detectors/resource-spiral.js';
import { detectScopeCreep } from './detectors/scope-creep.js';
import { detectStagnation } from './detectors/stagnation.js';
import { knowledgeFor, type ProjectKnowledge } from '@warden/project-knowledge';
import { emptyState, heldState, type HeldState, type PhaseKey, type PollingRun, type SessionSnapshot, type StateBounds } from './session-state.js';
import { tallyToolRuns } from './detectors/silent-hook.js';
import { shared } from './shared-strings.js';
import { isWaitOnly } from './status-checks.js';
import { StepWindow } from './step-window.js';

export const DETECTORS: Detectors = {
  repetitive_errors: detectRepetitiveErrors,
  polling_loop: detectPollingLoop,
  scope_creep: detectScopeCreep,
  goal_drift: detectGoalDrift,
  resource_spiral: detectResourceSpiral,
  hallucination: (view) => worse(detectHallucination(view), detectFalseSuccess(view)),
  installation_trap: detectInstallationTrap,
  bypass_trap: detectBypassTrap,
  complexity_trap: detectComplexityTrap,
  assumption_trap: (view) => worse(detectAssumptionTrap(view), detectUncheckedBlame(view)),
  stagnation: (view) => worse(detectStagnation(view), detectDisputedRounds(view)),
};

/** A pattern to publish: the payload of `pattern.detected`. */
export interface PatternReport {
  pattern_id: string;
  pattern_type: PatternType;
  severity: Severity;
  confidence: number;
  impact_factor: number;
  description: string;
  evidence_action_ids: string[];
  details: Record<string, unknown>;
  episode: number;
  shadow: boolean;
}

export interface SessionStart {
  context: { goal?: string; expected_paths?: string[]; cwd?: string };
  phase?: Phase;
}

export interface VerdictSeen {
  action_id: string;
  /** The reviewer's verdict: a blocked action was attempted, though it never ran. */
  verdict?: string;
  rationality?: { components: { goal_alignment: number } };
}

const MAX_RUN_IDS = 30;
const SLOTS_PER_WINDOW = 6;

/**
 * One session's pattern detection: its windows (kept in a JSON snapshot that survives restarts),
 * the detectors run over them after every event, and the episodes that turn findings into reports —
 * one report when a pattern starts, another only when it gets worse, none while it merely continues.
 * Every event is idempotent: the same action, outcome or verdict applied twice changes nothing.
 */
export class SessionPatterns {
  // Both set in the constructor, so that V8 keeps them in the object rather than in a store beside it.
  private scope: { key: string; match?: PathMatcher } | undefined = undefined;
  /**
   * The object of the polling run last ended, taken again by the next one: a session may start a run at
   * every step it counts, and a new object each time would outlive V8's young generation to die in the
   * old one.
   */
  private endedRun: PollingRun | undefined = undefined;

  private constructor(
    private readonly settings: PatternSettings,
    private readonly knowledgeFiles: readonly ProjectKnowledge[],
    private readonly state: HeldState,
    private readonly window: StepWindow,
    private readonly detectors: Detectors,
  ) {}

  static open(settings: PatternSettings, knowledge: readonly ProjectKnowledge[], agentId: string, sessionId: string, now: number, detectors: Detectors = DETECTORS): SessionPatterns {
    return new SessionPatterns(settings, knowledge, emptyState(agentId, sessionId, now, stateBounds(settings)), new StepWindow(windowRows(settings)), detectors);
  }

  static restore(settings: PatternSettings, knowledge: readonly ProjectKnowledge[], snapshot: SessionSnapshot, detectors: Detectors = DETECTORS): SessionPatterns {
    const { steps, ...stored } = snapshot;
    // A counted step no longer needs what only counting read (snapshots stored before kept it).
    const counted = new Set(stored.counted);
    for (const step of steps) if (counted.has(step.id)) settle(step);
    // Paths stored before they had one canonical form (a home written as `~`, a Windows drive as `/c/`) are read in it,
    // and a write, the same action by its file, is signed by the path as now written (action-step.ts).
    const { cwd } = stored.context;
    const home = homeOf(cwd);
    for (const step of steps) {
      if (!step.paths) continue;
      step.paths = step.paths.map((path) => resolvePath(path, cwd, home));
      if (step.op === 'write' && step.cmd === undefined && step.tool !== undefined && step.sig !== undefined) step.sig = fingerprint(`${step.tool}\u0000${step.paths.join(' ')}`);
    }
    return new SessionPatterns(settings, knowledge, heldState(stored, stateBounds(settings)), StepWindow.of(steps, windowRows(settings)), detectors);
  }

  /** The session as stored: made when asked for (after every event), from the state and the window's steps. */
  get snapshot(): SessionSnapshot {
    // Not `{ ...this.state }`: V8 tenures a spread copy of an object that lives long, and a copy made
    // after every event would fill the old generation.
    return Object.assign({}, this.state, { resources: this.state.resources.stored(), counted: this.state.counted.list(), steps: this.window.steps().slice() });
  }

  get ended(): boolean {
    return !!this.state.ended;
  }

  started(at: number, start: SessionStart): PatternReport[] {
    this.advance(at);
    this.state.context = { ...start.context };
    if (start.phase) this.state.phase = start.phase;
    return this.evaluate();
  }

  /**
   * The user asked for something new (a follow-up prompt): the goal becomes the original request with this
   * one after it, and the goal drift detector judges the changes from here on.
   */
  goalChanged(at: number, request: string): PatternReport[] {
    const previous = this.state.goal_since;
    this.advance(at);
    this.state.context = { ...this.state.context, goal: goalAfter(this.state.context.goal, request) };
    this.state.goal_since = at;
    const named = pathsNamedIn(request, this.state.context.cwd);
    if (named.length) this.state.named_paths = [...new Set([...(this.state.named_paths ?? []), ...named])].slice(-32);
    const claims = recordRequest(this.state.claims, request, at, this.changesSince(previous));
    if (claims) this.state.claims = claims;
    return this.evaluate();
  }

  /**
   * The agent ended its turn with these words (Claude Code's and Codex's Stop hook, Gemini CLI's AfterAgent,
   * a recording's last reply before the user's next request): what they claim is held against what the session did.
   */
  turnEnded(at: number, words: string): PatternReport[] {
    if (this.state.ended) return [];
    this.advance(at);
    const completed = this.window.steps().filter(isCompleted);
    this.state.claims = recordTurnEnd(this.state.claims, words, completed, at);
    return this.evaluate();
  }

  phaseChanged(at: number, phase: Phase): PatternReport[] {
    this.advance(at);
    if (this.state.phase !== phase) {
      this.state.phase = phase;
      delete this.state.stagnation[phase];
      delete this.state.last_progress[phase];
    }
    return this.evaluate();
  }

  /** The session is over: only the mark is kept, so stragglers are ignored and the stored copy is small. */
  end(): void {
    const { state } = this;
    state.ended = true;
    this.window.clear();
    state.counted.clear();
    state.stagnation = {};
    state.last_progress = {};
    state.resources.clear();
    state.polling = undefined;
    delete state.tool_runs;
    this.endedRun = undefined;
  }

  actionProposed(at: number, action: ProposedAction & { context?: SessionStart['context']; cwd?: string }): PatternReport[] {
    this.advance(at);
    const { state } = this;
    if (action.context && !state.context.goal && !state.context.cwd) state.context = { ...action.context };
    if (state.counted.has(action.action_id)) return [];
    const row = this.window.indexOf(action.action_id);
    const existing = row >= 0 ? this.window.step(row) : undefined;
    if (existing?.sig) return [];
    // Relative paths are read from where the shell is; the home and the scope stay the declared project's.
    const cwd = action.cwd ?? state.context.cwd;
    state.proposed = (state.proposed ?? 0) + 1;
    const step = Object.assign(existing ?? {}, stepOfAction(action, at, cwd, homeOf(state.context.cwd ?? cwd)), existing ? pick(existing) : {});
    if (step.bg) this.addBackground(step.bg);
    if (scopeIsHome(state.context.cwd, state.context.expected_paths)) this.addWorkRoots(workRootsOfStep(step));
    // A worktree of the project's repository, in any session: the project's, wherever it lies.
    if (step.cmd) this.addWorkRoots(worktreesAddedIn(step.cmd, cwd));
    if (step.status) this.count(step);
    // A step whose outcome came first moves to where its proposal belongs.
    if (existing) this.window.remove(row);
    this.window.insert(step);
    this.trim();
    return this.evaluate();
  }

  outcomeReported(at: number, outcome: ReportedOutcome & { progress?: PhaseProgress }, costUsd: number | undefined): PatternReport[] {
    this.advance(at);
    const { state } = this;
    if (state.counted.has(outcome.action_id)) return [];
    const row = this.window.indexOf(outcome.action_id);
    const step = row >= 0 ? this.window.step(row) : { id: outcome.action_id, at };
    if (step.status) return [];
    addOutcome(step, outcome, costUsd, at);
    if (outcome.progress) this.recordProgress(outcome.phase ?? step.phase ?? state.phase, outcome.progress, step.id);
    if (step.sig) this.count(step);
    this.place(row, step);
    this.trim();
    return this.evaluate();
  }

  /**
   * Tool runs the agent's own telemetry reported (each once, whatever an exporter's retries bring): held
   * against the actions its hooks proposed, they tell of a hook gone silent (bypass_trap).
   */
  toolsObserved(at: number, runs: readonly { key: string; tool: string; at?: string }[]): PatternReport[] {
    if (this.state.ended) return [];
    this.advance(at);
    return tallyToolRuns(this.state, at, runs) ? this.evaluate() : [];
  }

  /**
   * A verdict tells of its action and does not move the session's clock: it is stamped by the reviewer's
   * clock, which need not be the agent's (a recording replayed on its own times). `at` only dates a
   * verdict that came before its action, until the action brings its own time.
   */
  verdict(at: number, verdict: VerdictSeen): PatternReport[] {
    const alignment = verdict.rationality?.components.goal_alignment;
    const blocked = verdict.verdict === 'block';
    if (alignment === undefined && !blocked) return [];
    const row = this.window.indexOf(verdict.action_id);
    if (row < 0 && this.state.counted.has(verdict.action_id)) return [];
    const step = row >= 0 ? this.window.step(row) : { id: verdict.action_id, at: Math.min(at, this.state.now) };
    if (step.alignment === alignment && (!blocked || step.blocked)) return [];
    if (alignment !== undefined) step.alignment = alignment;
    // Refused, it never runs and reports no outcome; what it attempted still tells of a trap.
    if (blocked) step.blocked = true;
    this.place(row, step);
    this.trim();
    return this.evaluate();
  }

  /** Runs every enabled detector over the current windows and turns findings into reports per episode. */
  evaluate(): PatternReport[] {
    const view = this.view();
    const reports: PatternReport[] = [];
    for (const type of DETECTOR_NAMES) {
      const toggle = this.settings[type];
      if (!toggle.enabled) continue;
      const finding = (this.detectors[type] as Detector)(view);
      const report = this.episode(type, finding);
      if (report) reports.push(report);
    }
    return reports;
  }

  private addWorkRoots(roots: readonly string[]): void {
    if (!roots.length) return;
    const known = this.state.work_roots ?? [];
    const added = roots.filter((r) => !known.includes(r));
    if (added.length) this.state.work_roots = [...known, ...added].slice(-64);
  }

  private view(): SessionView {
    const { context } = this.state;
    const home = homeOf(context.cwd);
    const named = this.state.named_paths ?? [];
    const key = `${context.cwd ?? ''}\u0000${(context.expected_paths ?? []).join('\u0000')}\u0000${context.goal ?? ''}\u0000${named.join('\u0000')}`;
    const roots = this.state.work_roots;
    if (scopeIsHome(context.cwd, context.expected_paths)) {
      // A session started in its home directory scopes itself to what it works on, not the whole home.
      if (this.scope?.key !== `${key}\u0000${roots?.length ?? 0}`) this.scope = homeScopeOf(`${key}\u0000${roots?.length ?? 0}`, context, home, named, roots ?? []);
    } else if (this.scope?.key !== `${key}\u0000${roots?.length ?? 0}`) this.scope = scopeOf(`${key}\u0000${roots?.length ?? 0}`, context, home, named, roots ?? []);
    const knowledge = knowledgeFor(this.knowledgeFiles, context.cwd ? resolvePath(context.cwd) : undefined, pathMatcher);
    const steps = this.window.steps();
    return {
      // The resource slots as the detectors read them (the rest of the state is read as held).
      state: Object.assign({}, this.state, { resources: this.state.resources.stored() }),
      settings: this.settings,
      completed: steps.filter(isCompleted),
      attempted: steps.filter((s) => s.sig !== undefined && (s.status !== undefined || s.blocked)),
      ...(this.scope.match ? { inScope: this.scope.match } : {}),
      ...(knowledge ? { knowledge } : {}),
      ...(home ? { home } : {}),
    };
  }

  private episode(type: PatternType, finding: Finding | undefined): PatternReport | undefined {
    const episodes = this.state.episodes;
    const episode = episodes[type];
    if (!finding) {
      if (episode?.open && ++episode.quiet >= this.settings.episode.quiet_evaluations) episode.open = false;
      return undefined;
    }
    if (!episode?.open) {
      const n = (episode?.n ?? 0) + 1;
      episodes[type] = { n, open: true, severity: finding.severity, magnitude: finding.magnitude, quiet: 0 };
      return this.report(type, n, finding.severity, finding);
    }
    episode.quiet = 0;
    let severity = finding.severity;
    // Still going and its evidence grew by the escalation factor: one step worse than last reported, up to
    // the top of the detector's ladder.
    if (severityRank(severity) <= severityRank(episode.severity) && finding.magnitude >= episode.magnitude * this.settings.episode.escalation_growth) {
      const ladder = (this.settings[type] as { severity?: SeverityLadder }).severity;
      severity = severityAt(Math.min(severityRank(episode.severity) + 1, ladder ? severityRank(ladderTop(ladder)) : severityRank('critical')));
    }
    if (severityRank(severity) <= severityRank(episode.severity)) return undefined;
    episode.severity = severity;
    episode.magnitude = finding.magnitude;
    return this.report(type, episode.n, severity, finding);
  }

  private report(type: PatternType, episode: number, severity: Severity, finding: Finding): PatternReport {
    const toggle = this.settings[type];
    return {
      pattern_id: `pat-${fingerprint(`${this.state.agent_id}:${this.state.session_id}`)}-${type}-${episode}-${severity}`,
      pattern_type: type,
      severity,
      confidence: finding.confidence,
      impact_factor: Math.min(10, finding.impact ?? toggle.impact),
      description: finding.description.slice(0, 2000),
      evidence_action_ids: finding.evidence.slice(-500).map((id) => id.slice(0, 128)),
      details: finding.details,
      episode,
      shadow: toggle.mode === 'shadow',
    };
  }

  /** The changes (writes, commands) completed since `since` (the session's start when undefined): what the user then tried. */
  private changesSince(since: number | undefined): string[] {
    return this.window
      .steps()
      .filter((s) => s.status !== undefined && isWriteOrCommand(s) && (since === undefined || s.at >= since))
      .map((s) => s.id);
  }

  private advance(at: number): void {
    if (at > this.state.now) this.state.now = at;
  }

  /** Writes a changed step back to its row, or adds a new one in proposal order. */
  private place(row: number, step: Step): void {
    if (row >= 0) this.window.replace(row, step);
    else this.window.insert(step);
  }

  /** Counts a step once both halves are in: the polling run and the resource slots; then it is settled. */
  private count(step: Step): void {
    const { state } = this;
    state.counted.add(step.id);
    this.countPolling(step);
    state.resources.add(this.slot(), fileOperations(step), step.tokens ?? 0, step.cost_usd ?? 0);
    settle(step);
  }

  private countPolling(step: Step): void {
    const { state } = this;
    // Waiting between two polls does not end the run.
    if (step.cmd && isWaitOnly(step.cmd)) return;
    const changes = step.op === 'write' || (step.op === 'exec' && (step.files_touched ?? 0) > 0);
    if (step.status !== 'success' || changes || !step.sig) {
      this.endedRun = state.polling ?? this.endedRun;
      state.polling = undefined;
      return;
    }
    const run = state.polling;
    // The same action again, or another look at the same job.
    if (run && (run.sig === step.sig || (step.check !== undefined && run.check === step.check))) {
      if (run.sig !== step.sig) run.varied = true;
      run.count++;
      run.ids.push(step.id);
      if (run.ids.length > MAX_RUN_IDS) run.ids.shift();
      if (step.out && !run.outputs.includes(step.out) && run.outputs.length < 5) run.outputs.push(shared(step.out));
      return;
    }
    state.polling = this.newRun(run ?? this.endedRun, shared(step.sig), step);
    this.endedRun = undefined;
  }

  /**
   * A run of one step, in the object of an ended run if there is one (then no field is left out: absent is
   * undefined). Its signature and output fingerprint are shared: a step's are new strings, and polling
   * repeats them.
   */
  private newRun(ended: PollingRun | undefined, sig: string, step: Step): PollingRun {
    const out = shared(step.out);
    if (!ended) return { sig, count: 1, ids: [step.id], outputs: out ? [out] : [], ...(step.check ? { check: shared(step.check) } : {}), ...(step.tool ? { tool: step.tool } : {}), ...(step.cmd ? { cmd: step.cmd } : {}) };
    ended.sig = sig;
    ended.check = shared(step.check);
    ended.varied = undefined;
    ended.count = 1;
    // Shortened in place: emptied, an array lets its storage go and the next push makes it again.
    ended.ids[0] = step.id;
    ended.ids.length = 1;
    if (out) {
      ended.outputs[0] = out;
      ended.outputs.length = 1;
    } else ended.outputs.length = 0;
    ended.tool = step.tool || undefined;
    ended.cmd = step.cmd || undefined;
    return ended;
  }

  private recordProgress(phase: Phase | undefined, progress: PhaseProgress, actionId: string): void {
    const { state } = this;
    const key: PhaseKey = phase ?? 'default';
    const previous = state.last_progress[key];
    state.last_progress[key] = progress;
    state.progress_phase = key;
    const run = (state.stagnation[key] ??= { count: 0, ids: [] });
    if (hasPhaseProgress(phase, progress, previous)) {
      // Started again in place, like the polling run.
      run.count = 0;
      run.ids.length = 0;
      return;
    }
    run.count++;
    run.ids.push(actionId);
    if (run.ids.length > MAX_RUN_IDS) run.ids.shift();
  }

  private addBackground(delta: 1 | -1): void {
    const resources = this.state.resources;
    resources.background = Math.max(0, resources.background + delta);
    resources.endWithBackground(this.slot());
  }

  /** The index of the resource slot of the session's "now", created when needed. */
  private slot(): number {
    const { resources, now } = this.state;
    const width = Math.max(1, Math.floor(this.settings.resource_spiral.window_ms / SLOTS_PER_WINDOW));
    return resources.slotAt(now - (now % width));
  }

  /** Drops what fell out of the windows: steps beyond the count or age, resource slots older than two windows. */
  private trim(): void {
    const { state, settings } = this;
    const oldest = state.now - settings.window.max_age_ms;
    const window = this.window;
    let drop = Math.max(0, window.length - settings.window.max_actions);
    while (drop < window.length && window.timeAt(drop) < oldest) drop++;
    if (drop) window.dropOldest(drop);
    const horizon = state.now - 2 * settings.resource_spiral.window_ms;
    const resources = state.resources;
    let expired = 0;
    while (expired < resources.length && resources.startOf(expired) + settings.resource_spiral.window_ms / SLOTS_PER_WINDOW <= horizon) expired++;
    resources.dropOldest(expired);
  }
}

/** Steps a window holds at most: the count window, and the one added before the window is trimmed. */
const windowRows = (settings: PatternSettings) => settings.window.max_actions + 1;

/** Resource slots of two windows, the one being filled, and the one made before a trim; the count window's ids. */
const stateBounds = (settings: PatternSettings): StateBounds => ({ slots: 2 * SLOTS_PER_WINDOW + 2, counted: settings.window.max_actions });

/** Sessions of one project share their scope matcher: compiled globs are the larger part of a session's memory otherwise. */
const scopes = new Map<string, { key: string; match?: PathMatcher }>();
const MAX_SCOPES = 5000;

function scopeOf(key: string, context: SessionSnapshot['context'], home: string | undefined, named: readonly string[], roots: readonly string[]): { key: string; match?: PathMatcher } {
  // Worktrees the session added belong to it alone: its scope is not the one other sessions of the project share.
  if (roots.length) {
    const shared = scopeOf(key.slice(0, key.lastIndexOf('\u0000')), context, home, named, []);
    const match = shared.match;
    return match ? { key, match: (path: string) => match(path) || roots.some((root) => isUnder(path, root)) } : shared;
  }
  let scope = scopes.get(key);
  if (!scope) {
    // What the user named in the task or its follow-ups is the task's, wherever it lies. Without a working directory
    // or expected paths there is no project to leave, as for the reviewer: what the user names is added to a project
    // nobody knows, and does not become the only place the session may work in.
    const known = !!context.cwd || !!context.expected_paths?.length;
    const globs = known ? [...(context.cwd ? [context.cwd] : []), ...(context.expected_paths ?? []), ...pathsNamedIn(context.goal, context.cwd, home), ...named] : [];
    const inside = globs.length ? pathMatcher(globs, context.cwd) : undefined;
    // The directories the project lies in are where it is, not elsewhere: listing them is looking around.
    // Not the root, the home directory or what holds it: a scan there is looking elsewhere.
    const project = context.cwd ? resolvePath(context.cwd, undefined, home) : undefined;
    const around = (path: string) => !!project && path !== '/' && path !== '~' && !(home && isUnder(home, path)) && isUnder(project, path);
    // Without a known working directory a relative path is the project's (Aider's edits, for one, name files
    // of the repository it runs in): only an absolute or home path can lie elsewhere.
    const relativeInside = (path: string) => !context.cwd && isRelativePath(path);
    // The project reached by its home's own path while the session records the mount it lies on.
    scope = { key, ...(inside ? { match: orThroughMount((path: string) => inside(path) || around(path) || relativeInside(path), project) } : {}) };
    if (scopes.size >= MAX_SCOPES) scopes.clear();
    scopes.set(key, scope);
  }
  return scope;
}

/** The scope of a session started in its home directory: what the user named, and its work roots. */
function homeScopeOf(key: string, context: SessionSnapshot['context'], home: string | undefined, named: readonly string[], roots: readonly string[]): { key: string; match?: PathMatcher } {
  const globs = [...pathsNamedIn(context.goal, context.cwd, home), ...named].filter((p) => !isHomeRoot(p));
  const inside = globs.length ? pathMatcher(globs, context.cwd) : undefined;
  const directory = resolvePath(context.cwd!);
  // Its files directly in the home are the directory it was started in, as the reviewer reads them (isFileOfHome).
  return { key, match: (path: string) => !!inside?.(path) || roots.some((root) => isUnder(path, root)) || isFileOfHome(path, directory) };
}

/** Commands that look at, enter or create the directories they name: a session started in its home works there. */
const LOOKS_AT = /^(?:cd|ls|ll|dir|tree|find|fd|cat|head|tail|less|grep|rg|ag|wc|stat|file|du|mkdir|get-childitem|gci|type|git\s+-C)\b/i;

/** What a step shows a session started in its home works on: the directories it reads, lists, searches, enters or creates. */
function workRootsOfStep(step: Step): string[] {
  if (!step.paths?.length) return [];
  const looks = step.op === 'read' || step.op === 'search' || (step.op === 'exec' && !!step.cmd && step.cmd.split(/\s*(?:&&|;|\|\|)\s*/).every((part) => LOOKS_AT.test(part) || /^(?:echo|sleep|pwd)\b/.test(part)));
  if (!looks) return [];
  return [...new Set(step.paths.map((p) => workRootOf(p)).filter((r): r is string => !!r))];
}

/** What only the outcome or verdict half of a step knows, kept when the proposal arrives later. */
function pick(step: Step): Partial<Step> {
  const kept: Partial<Step> = {};
  for (const key of ['status', 'err', 'err_text', 'done', 'out', 'destroy_prompt', 'files_touched', 'tokens', 'cost_usd', 'alignment', 'blocked', 'turn'] as const) {
    if (step[key] !== undefined) (kept as Record<string, unknown>)[key] = step[key];
  }
  return kept;
}

/**
 * USD for a model call: the shared price table (with the configured prices laid over it), cache reads
 * and writes at their own prices, models not listed priced by their family or the fallback — exactly
 * as the breaker prices them.
 */
export function priceOf(pricing: PatternSettings['resource_spiral']['pricing'], model: string | undefined, tokens: TokenUsage | undefined): number | undefined {
  if (!tokens) return undefined;
  return priceModelCall(model ?? FALLBACK_MODEL, tokens, pricing).usd;
}
