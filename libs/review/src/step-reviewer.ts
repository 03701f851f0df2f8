import {
  AUTOMATION_LEVEL_DEFINITIONS,
  goalAfter,
  isAllowedAtLevel,
  type AutomationLevel,
  type PayloadOf,
  type Phase,
  type Severity,
  type VerdictKind,
} from '@warden/contracts';
import { RationalityChecker } from './analysis/rationality-checker.js';
import { RiskCalculator, type RiskAnalysis } from './analysis/risk-calculator.js';
import { SideEffectAnalyzer } from './analysis/side-effect-analyzer.js';
import { ReviewCache } from './cache/review-cache.js';
import { DecisionEngine, type Decision, type DecisionInput } from './decision/decision-engine.js';
import { isProtectedPath } from './parsing/command-facts.js';
import { parseAction, UnknownActionKindError, type ParsedAction } from './parsing/parsed-action.js';
import { isFileOfHome, isHomeRoot, orThroughMount, pathMatcher, pathsNamedIn, resolvePath, scopeIsHome, worktreesAddedIn, type PathMatcher } from '@warden/actions';
import { createdRootsOf, workRootsOf } from './session/home-scope.js';
import { nameMatcher } from './parsing/name-matcher.js';
import type { CustomRuleDefinition } from './rules/custom-rule-definition.js';
import { compileCustomRule, customRuleSwitches } from './rules/custom-rules.js';
import type { ReviewRule, RuleContext, RuleFinding } from './rules/review-rule.js';
import type { RuleOverrideDefinition } from './rules/rule-override-definition.js';
import { compileRuleOverrides, withOverrides } from './rules/rule-overrides.js';
import { packSwitches } from './rules/rule-packs.js';
import { byStrength, RulesEngine, type RuleEvaluation } from './rules/rules-engine.js';
import type { ReviewRecorder } from './explanation/review-recorder.js';
import type { ReviewSession } from './session/review-session.js';
import { ReviewSessionStore, type SessionAddress } from './session/review-session-store.js';
import { holdsBack } from './supervision/breaker-hold.js';
import { ladderActionOf } from './supervision/ladder-action.js';
import { SupervisionState } from './supervision/supervision-state.js';
import { resolveSettings, settingsFor, type ReviewerSettings } from './settings/reviewer-settings.js';
import type { ProjectKnowledge } from '@warden/project-knowledge';
import { knowledgeFor } from './validation/project-knowledge.js';
import type { ValidationFinding } from './validation/tool-validator.js';
import { ToolSupervisor } from './validation/tool-supervisor.js';
import { validationOf } from './validation/verdict-validation.js';

/** The system's own directories (paths in @warden/actions' form): a task that names one (`add a host to /etc/hosts`) does not hand it over. */
const SYSTEM_DIRECTORY = /^(?:\/(?:etc|usr|bin|sbin|lib|lib32|lib64|boot|sys|proc|dev|System|Library|Applications)|[a-z]:\/(?:windows|program files(?: \(x86\))?))(?:\/|$)/;

export type ProposedAction = PayloadOf<'action.proposed'>;
export type Verdict = PayloadOf<'review.verdict'>;

export interface StepReviewerOptions {
  /** A configuration document (YAML/JSON parsed), or settings already resolved. Defaults apply where absent. */
  settings?: unknown;
  /** Custom rules from a rules file, besides those written inline in the settings. */
  extraRules?: readonly CustomRuleDefinition[];
  /** Where extraRules came from, for error messages. */
  extraRulesSource?: string;
  /** Overrides of built-in rules' verdicts from the same file (rule-overrides.ts); checked again here. */
  ruleOverrides?: readonly RuleOverrideDefinition[];
  knowledge?: readonly ProjectKnowledge[];
  /** Breaker states and automation levels, fed by the other services. */
  supervision?: SupervisionState;
  /** Sessions to keep reviewing with, e.g. those of the reviewer this one replaces after a configuration reload. */
  sessions?: ReviewSessionStore;
  clock?: () => number;
  /**
   * Keep a session however long it pauses (a replay of one session): the service forgets an idle session to
   * bound its memory and rebuilds it from its stored messages when it acts again, so a replay that forgot
   * would review what follows a long pause without the session's declaration (its directory, scope, agent).
   */
  keepIdleSessions?: boolean;
}

/** A review and what the metrics need to know about it. */
export interface ReviewResult {
  verdict: Verdict;
  cacheHit: boolean;
  ruleHits: string[];
  shadowHits: string[];
  ruleErrors: { rule: string; message: string }[];
  validations: ValidationFinding[];
  durationMs: number;
  /** Slower than performance.max_review_time_ms. */
  slow: boolean;
}

/** What does not depend on the session: cached by the normalised action. */
interface ActionAnalysis {
  parsed: ParsedAction;
  evaluation: RuleEvaluation;
}

/** Settings with everything built from them: one for the defaults and one per pipeline. */
interface ReviewProfile {
  name: string | undefined;
  settings: ReviewerSettings;
  rules: RulesEngine;
  supervisor: ToolSupervisor;
  risk: RiskCalculator;
  decisions: DecisionEngine;
  matches?: (session: ReviewSession) => boolean;
}

interface SessionScope {
  context: ReviewSession['context'];
  inScope: (path: string) => boolean;
  /** The project: the expected paths, or without them the working directory (what it works on, for a session started in its home). */
  inProject: (path: string) => boolean;
  /** The session started in its home directory. */
  home: boolean;
  profile: ReviewProfile;
}

/** A copy of an analysis for the cache, or undefined when the input holds something that cannot be copied (a function given in process). */
function cacheCopy(analysis: ActionAnalysis): ActionAnalysis | undefined {
  try {
    return structuredClone(analysis);
  } catch {
    return undefined;
  }
}

/**
 * Actions longer than this are reviewed again rather than cached. A long command's analysis holds hundreds
 * of objects that every young-generation collection would copy, and long commands are seldom sent twice:
 * 1 repeat among 40 commands over 1 KB in the recorded sessions, against 151 among 1,456 shorter ones.
 */
const MAX_CACHED_KEY = 1024;

/**
 * The step reviewer (seed 001) with supervisory tool validation (seed 004): parses an action, scores its
 * risk and rationality against the session, analyses its side effects, runs the rules and validators,
 * reads the breaker and ladder state, and decides. Plain TypeScript, synchronous, no I/O.
 */
export class StepReviewer {
  readonly settings: ReviewerSettings;
  readonly supervision: SupervisionState;
  private readonly profiles: ReviewProfile[];
  private readonly base: ReviewProfile;
  private readonly sessions: ReviewSessionStore;
  private readonly cache: ReviewCache<ActionAnalysis> | null;
  private readonly knowledge: readonly ProjectKnowledge[];
  private readonly rationality = new RationalityChecker();
  private readonly sideEffects = new SideEffectAnalyzer();
  private readonly scopes = new WeakMap<ReviewSession, SessionScope>();
  private readonly clock: () => number;
  private readonly alwaysInScope: PathMatcher;

  constructor(options: StepReviewerOptions = {}) {
    this.settings = resolveSettings(options.settings ?? {});
    this.clock = options.clock ?? Date.now;
    this.supervision = options.supervision ?? new SupervisionState();
    this.knowledge = options.knowledge ?? [];
    const definitions = [...this.settings.rules.custom, ...(options.extraRules ?? [])];
    const custom = [
      ...this.settings.rules.custom.map((d) => compileCustomRule(d, 'settings rules.custom')),
      ...(options.extraRules ?? []).map((d) => compileCustomRule(d, options.extraRulesSource ?? 'custom rules file')),
    ];
    const switches = customRuleSwitches(definitions);
    const overrides = compileRuleOverrides(options.ruleOverrides ?? [], options.extraRulesSource ?? 'custom rules file');
    this.base = this.profile(undefined, this.settings, custom, switches, overrides);
    this.profiles = Object.entries(this.settings.pipelines).map(([name, pipeline]) => {
      const profile = this.profile(name, settingsFor(this.settings, pipeline), custom, switches, overrides);
      const agents = nameMatcher(pipeline.agents ?? []);
      const environments = new Set(pipeline.environments ?? []);
      const kinds = new Set(pipeline.agent_kinds ?? []);
      profile.matches = (session) =>
        (!pipeline.agents || agents(session.agentId)) &&
        (!pipeline.environments || environments.has(session.context.environment ?? '')) &&
        (!pipeline.agent_kinds || kinds.has(session.context.agentKind ?? ''));
      return profile;
    });
    const { cache, sessions, limits, scope } = this.settings;
    this.cache = cache.enabled ? new ReviewCache(cache.max_size, cache.ttl_minutes * 60_000, this.clock) : null;
    this.sessions = options.sessions ?? new ReviewSessionStore(sessions.max_sessions, options.keepIdleSessions ? Infinity : sessions.idle_minutes * 60_000, limits.history_size, this.clock);
    this.alwaysInScope = pathMatcher(scope.always_in_scope);
  }

  /** Names of every rule the reviewer knows (built-in and custom), for metrics and docs. */
  get ruleNames(): string[] {
    return this.base.rules.names;
  }

  cacheStats() {
    return this.cache?.stats() ?? { hits: 0, misses: 0, evictions: 0, size: 0 };
  }

  get sessionStore(): ReviewSessionStore {
    return this.sessions;
  }

  startSession(address: SessionAddress, payload: PayloadOf<'session.started'>): void {
    const session = this.sessions.open(address);
    const extra: { environment?: string; phase?: Phase; agentKind?: string } = {};
    if (payload.environment !== undefined) extra.environment = payload.environment;
    if (payload.phase !== undefined) extra.phase = payload.phase;
    if (payload.agent_kind !== undefined) extra.agentKind = payload.agent_kind;
    session.declare(payload.context, extra);
    session.declared = true;
  }

  changePhase(address: SessionAddress, phase: Phase): void {
    this.sessions.open(address).setPhase(phase);
  }

  /** The user asked for something new: the session's goal is its original request with this one after it. */
  changeGoal(address: SessionAddress, request: string): void {
    const session = this.sessions.open(address);
    session.declare({ goal: goalAfter(session.context.goal, request) });
    // The goal keeps only the latest follow-up; the paths each one named stay the task's.
    session.nameRequestPaths(pathsNamedIn(request, session.context.cwd));
  }

  endSession(address: SessionAddress): void {
    this.sessions.close(address);
  }

  recordOutcome(address: SessionAddress, payload: PayloadOf<'action.outcome'>): void {
    const session = this.sessions.find(address);
    const outcome: { actionId: string; status: 'success' | 'error'; error?: { message: string; class?: string } } = {
      actionId: payload.action_id,
      status: payload.status,
    };
    if (payload.error) outcome.error = payload.error.class ? { message: payload.error.message, class: payload.error.class } : { message: payload.error.message };
    session?.recordOutcome(outcome, this.clock());
  }

  recordPattern(address: SessionAddress, payload: PayloadOf<'pattern.detected'>): void {
    this.sessions.open(address).recordPattern({
      type: payload.pattern_type,
      severity: payload.severity,
      confidence: payload.confidence,
      shadow: payload.shadow,
      at: this.clock(),
    });
  }

  recordCheckpoint(address: SessionAddress): void {
    this.sessions.open(address).recordCheckpoint(this.clock());
  }

  /** Reviews an action; an explaining review passes `recorder`, told every rule considered and the decision (explanation/). */
  review(action: ProposedAction, address: SessionAddress, recorder?: ReviewRecorder): ReviewResult {
    const started = performance.now();
    const now = this.clock();
    const session = this.sessions.open(address);
    if (action.context) session.declare(action.context);
    if (action.phase) session.setPhase(action.phase);
    const scope = this.scopeOf(session);
    const { profile } = scope;
    const copy = { kind: action.kind, tool: action.tool, input: action.input };

    if (!profile.settings.enabled) {
      return this.result(started, profile, {
        verdict: this.bareVerdict(action, copy, 'allow', ['Review is disabled for this pipeline.'], 'disabled', 0),
        cacheHit: false,
        ruleHits: [],
        shadowHits: [],
        ruleErrors: [],
        validations: [],
      });
    }

    let analysis: ActionAnalysis;
    let cacheHit = false;
    try {
      ({ analysis, cacheHit } = this.analyseAction(action, session, scope, recorder));
    } catch (error) {
      if (!(error instanceof UnknownActionKindError)) throw error;
      return this.result(started, profile, {
        verdict: this.bareVerdict(action, copy, 'block', [error.message], 'error', 1, ['unknown_action_kind']),
        cacheHit: false,
        ruleHits: ['unknown_action_kind'],
        shadowHits: [],
        ruleErrors: [],
        validations: [],
      });
    }
    const { parsed } = analysis;
    if (scope.home) session.addWorkRoots(createdRootsOf(parsed, cwdOf(action, session)));
    const context = this.ruleContext(parsed, session, scope);
    const sessionEvaluation = profile.rules.evaluate(context, 'session', recorder?.rule);
    const findings = [...analysis.evaluation.findings, ...sessionEvaluation.findings].sort(byStrength);
    const shadow = [...analysis.evaluation.shadow, ...sessionEvaluation.shadow];
    const ruleErrors = [...analysis.evaluation.errors, ...sessionEvaluation.errors];

    const risk = profile.risk.calculate(parsed, session, scope.inScope, findings, now);
    const rationality = this.rationality.check(parsed, session, scope.inProject);
    const sideEffects = this.sideEffects.analyze(parsed, session, scope.inScope);
    const knowledge = knowledgeFor(this.knowledge, session.context.cwd);
    const validationContext = knowledge
      ? { session, knowledge, suspectEndpoints: profile.settings.validators.suspect_endpoints }
      : { session, suspectEndpoints: profile.settings.validators.suspect_endpoints };
    const supervised = profile.supervisor.validate(parsed, validationContext);
    const openBreakers = profile.settings.supervision.breaker
      ? this.supervision.openBreakers(address.agentId, address.sessionId).filter((b) => holdsBack(b, action, parsed))
      : [];
    const input = {
      action: parsed,
      risk,
      rationality,
      sideEffects,
      findings,
      validations: supervised.findings,
      firstTime: session.similar(parsed.key).length === 0,
      dangerousPattern: session.activePatterns(now).some((p) => p.severity === 'high' || p.severity === 'critical'),
      openBreakers: openBreakers.map((b) => ({ breaker: b.breaker, ...(b.reason ? { reason: b.reason } : {}), ...(b.suggestion ? { suggestion: b.suggestion } : {}) })),
      contextDeclared: !!session.context.goal || session.context.expectedPaths.length > 0,
      historyLength: session.history.length,
    };
    let decided: DecisionInput = input;
    let decision = profile.decisions.decide(input);
    const level = profile.settings.supervision.ladder ? (this.supervision.levelOf(address.agentId) ?? profile.settings.supervision.default_level ?? undefined) : undefined;
    if (level !== undefined && decision.verdict !== 'block') {
      const ladderAction = ladderActionOf(parsed, session.context.environment);
      if (ladderAction) {
        // What the reviewer allows outright counts as low risk on the ladder; anything it objects to counts at its severity.
        const ladderRisk: Severity = decision.verdict === 'allow' ? 'low' : risk.severity === 'low' ? 'medium' : risk.severity;
        const allowed = isAllowedAtLevel(level as AutomationLevel, ladderAction, ladderRisk);
        if (!allowed) {
          decided = { ...input, ladder: { level, levelName: AUTOMATION_LEVEL_DEFINITIONS[level]!.name, action: ladderAction, allowed } };
          decision = profile.decisions.decide(decided);
        }
      }
    }

    const { enforced, observed, mode } = this.enforcement(profile, decision, risk);
    recorder?.decided({ decision, input: decided, enforced, observed, mode, pipeline: profile.name, switchedOff: profile.rules.switchedOff, asyncThreshold: profile.settings.performance.async_threshold });
    session.recordAction(parsed, action.action_id, enforced, now, knowledge);
    if (enforced !== 'block' && enforced !== 'require_approval') {
      if (scope.home) session.addWorkRoots(workRootsOf(parsed, cwdOf(action, session)));
      if (parsed.command !== undefined) session.addWorktrees(worktreesAddedIn(parsed.command, cwdOf(action, session)));
    }
    const verdict = this.verdictOf(action, copy, decision, enforced, risk, rationality, sideEffects, findings, shadow, supervised.findings, ruleErrors, cacheHit);
    verdict.mode = mode;
    if (observed) verdict.observed_verdict = observed;
    if (level !== undefined) verdict.automation_level = level;
    // What the policies read of the session's spend, so that an explanation from the audit replays it.
    const spend = this.supervision.spendOf(session.agentId, session.sessionId);
    if (spend > 0) verdict.session_spend_usd = spend;
    if (profile.name) verdict.pipeline = profile.name;
    return this.result(started, profile, {
      verdict,
      cacheHit,
      ruleHits: findings.map((f) => f.rule),
      shadowHits: [...shadow.map((f) => f.rule), ...supervised.findings.filter((v) => v.shadow).map((v) => v.validator)],
      ruleErrors: [...ruleErrors, ...supervised.errors.map((e) => ({ rule: e.validator, message: e.message }))],
      validations: supervised.findings,
    });
  }

  private profile(
    name: string | undefined,
    settings: ReviewerSettings,
    custom: readonly ReviewRule[],
    switches: { disabled: string[]; shadow: string[] },
    overrides: ReturnType<typeof compileRuleOverrides>,
  ): ReviewProfile {
    // Rules switched off or to shadow in their own definition, plus those the settings name.
    const packs = packSwitches(settings.rules.packs as Partial<Record<string, { enabled?: boolean; shadow?: boolean }>>);
    const disabled = [...settings.rules.disabled, ...switches.disabled, ...packs.disabled];
    const shadow = [...settings.rules.shadow, ...switches.shadow, ...packs.shadow];
    return {
      name,
      settings,
      rules: new RulesEngine(withOverrides(RulesEngine.select(settings.rules.builtin, [...custom]), overrides), { disabled, shadow }),
      supervisor: new ToolSupervisor(undefined, { disabled, shadow }),
      risk: new RiskCalculator(settings.risk),
      decisions: new DecisionEngine({ risk: settings.risk, rationality: settings.rationality }),
    };
  }

  /** The session's scope matchers and pipeline, rebuilt only when its declared context changes. */
  private scopeOf(session: ReviewSession): SessionScope {
    const known = this.scopes.get(session);
    if (known && known.context === session.context) return known;
    const { expectedPaths, cwd } = session.context;
    // A relative glob (`docs/**`) is the working directory's.
    const expected = pathMatcher(expectedPaths.map((glob) => (cwd && !/^(?:[/~$]|[a-z]:[\\/])/i.test(glob) ? `${cwd.replace(/[\\/]+$/, '')}/${glob}` : glob)));
    // A session started in its home directory scopes itself to what it works on, not the whole home (home-scope.ts).
    const home = scopeIsHome(cwd, expectedPaths);
    const directory = cwd ? resolvePath(cwd) : undefined;
    // Its files directly in the home are the directory it was started in, as a project's are (isFileOfHome).
    // Worktrees the session added of the project's repository are the project's too (work roots of any session).
    const declared = home ? (path: string) => isFileOfHome(path, directory!) : expectedPaths.length ? expected : cwd ? pathMatcher([cwd]) : null;
    const project = declared ? (path: string) => declared(path) || session.inWorkRoots(path) : null;
    // Files and directories the user named in the task are part of it, wherever they are.
    // Not a system directory or a whole home directory: naming those does not hand them over.
    const named = pathMatcher([...pathsNamedIn(session.context.goal, cwd), ...session.context.namedPaths].filter((p) => !isProtectedPath(p) && !isHomeRoot(p) && !SYSTEM_DIRECTORY.test(p)));
    // With neither expected paths nor a working directory there is no scope to leave.
    // What a person approved writing outside it during the session is the task's too (a fork the user asked for).
    const inScope = project ? (path: string) => project(path) || this.alwaysInScope(path) || named(path) || session.isApproved(path) : () => true;
    const inProject = project ?? expected;
    const scope: SessionScope = {
      context: session.context,
      // The project reached by its home's own path while the session records the mount it lies on (throughMount).
      inScope: orThroughMount(inScope, directory),
      inProject: orThroughMount(inProject, directory),
      home,
      profile: this.profiles.find((p) => p.matches?.(session)) ?? this.base,
    };
    this.scopes.set(session, scope);
    return scope;
  }

  private analyseAction(action: ProposedAction, session: ReviewSession, scope: SessionScope, recorder?: ReviewRecorder): { analysis: ActionAnalysis; cacheHit: boolean } {
    // Relative paths are the shell's, wherever it moved; the scope stays the declared project.
    const cwd = action.cwd ?? session.context.cwd;
    let key: string | undefined;
    // Large inputs (a file's content, a long script) are not cached (see MAX_CACHED_KEY); an explaining review evaluates every rule itself.
    if (this.cache && !recorder && !Object.values(action.input).some((v) => typeof v === 'string' && v.length > MAX_CACHED_KEY)) {
      const text = JSON.stringify(action.input);
      key = `${scope.profile.name ?? ''}\u0000${action.kind}\u0000${action.tool}\u0000${cwd ?? ''}\u0000${action.description ?? ''}\u0000${text}`;
      if (key.length > MAX_CACHED_KEY) key = undefined;
      const cached = key ? this.cache.get(key) : undefined;
      if (cached) return { analysis: cached, cacheHit: true };
    }
    const parsed = parseAction(action, cwd);
    const evaluation = scope.profile.rules.evaluate(this.ruleContext(parsed, session, scope), 'action', recorder?.rule);
    const analysis = { parsed, evaluation };
    // The cache keeps a copy: were the review's own objects kept, V8 would learn that what parsing allocates
    // lives long and allocate it in the old generation from then on (allocation-site pretenuring), and every
    // later review of a long command would fill the old generation and slow each young collection.
    if (key && this.cache) {
      const copy = cacheCopy(analysis);
      if (copy) this.cache.set(key, copy);
    }
    return { analysis, cacheHit: false };
  }

  private ruleContext(action: ParsedAction, session: ReviewSession, scope: SessionScope): RuleContext {
    const context: RuleContext = { action, session, limits: { maxFileOperations: scope.profile.settings.limits.max_file_operations }, inScope: scope.inScope };
    const { supervision } = scope.profile.settings;
    const level = supervision.ladder ? (this.supervision.levelOf(session.agentId) ?? supervision.default_level ?? undefined) : undefined;
    if (level !== undefined) context.agentLevel = level;
    const spend = this.supervision.spendOf(session.agentId, session.sessionId);
    if (spend > 0) context.spendUsd = spend;
    context.deployment = scope.profile.settings.deployment;
    return context;
  }

  /** In async mode nothing is held; in blocking mode an action below the async threshold proceeds, its findings advisory. */
  private enforcement(profile: ReviewProfile, decision: Decision, risk: RiskAnalysis): { enforced: VerdictKind; observed?: VerdictKind; mode: 'blocking' | 'async' } {
    const { mode, performance } = profile.settings;
    const advisory = mode === 'async' || (decision.source === 'matrix' && risk.score < performance.async_threshold && decision.verdict !== 'block');
    if (!advisory || decision.verdict === 'allow' || decision.verdict === 'warn') return { enforced: decision.verdict, mode };
    return { enforced: 'allow', observed: decision.verdict, mode };
  }

  private verdictOf(
    action: ProposedAction,
    copy: Verdict['action'],
    decision: Decision,
    enforced: VerdictKind,
    risk: RiskAnalysis,
    rationality: ReturnType<RationalityChecker['check']>,
    sideEffects: ReturnType<SideEffectAnalyzer['analyze']>,
    findings: readonly RuleFinding[],
    shadow: readonly RuleFinding[],
    validations: readonly ValidationFinding[],
    ruleErrors: readonly { rule: string; message: string }[],
    cacheHit: boolean,
  ): Verdict {
    const verdict: Verdict = {
      action_id: action.action_id,
      verdict: enforced,
      reasons: decision.reasoning.all_reasons.map((r) => r.slice(0, 2000)),
      risk: { score: risk.score, severity: risk.severity, factors: risk.factors },
      confidence: decision.confidence,
      rule_hits: findings.map((f) => f.rule),
      action: copy,
      decided_by: decision.source,
      rationality: {
        score: rationality.score,
        components: rationality.components,
        issues: rationality.issues.slice(0, 16),
      },
      side_effects: {
        effects: sideEffects.effects.slice(0, 32).map((e) => ({ ...e, target: e.target.slice(0, 1024) })),
        reversible: sideEffects.reversible,
        ...(sideEffects.severity ? { severity: sideEffects.severity } : {}),
      },
      shadow_rule_hits: shadow.map((f) => f.rule),
      cache_hit: cacheHit,
    };
    if (decision.alternatives.length) verdict.alternatives = decision.alternatives.map((a) => a.slice(0, 2000));
    if (enforced === 'modify' && decision.modifiedInput) verdict.modified_input = decision.modifiedInput;
    if (validations.length) verdict.validations = validations.slice(0, 16).map(validationOf);
    if (ruleErrors.length) verdict.rule_errors = ruleErrors.slice(0, 16).map((e) => `Rule ${e.rule} failed: ${e.message}`.slice(0, 1000));
    return verdict;
  }

  private bareVerdict(
    action: ProposedAction,
    copy: Verdict['action'],
    verdict: VerdictKind,
    reasons: string[],
    decidedBy: 'error' | 'disabled',
    score: number,
    factors: string[] = [],
  ): Verdict {
    return {
      action_id: action.action_id,
      verdict,
      reasons,
      risk: { score, severity: score >= 0.95 ? 'critical' : 'low', factors },
      confidence: 1,
      rule_hits: decidedBy === 'error' ? ['unknown_action_kind'] : [],
      action: copy,
      decided_by: decidedBy,
    };
  }

  private result(started: number, profile: ReviewProfile, partial: Omit<ReviewResult, 'durationMs' | 'slow'>): ReviewResult {
    const durationMs = performance.now() - started;
    partial.verdict.review_ms = Math.round(durationMs * 1000) / 1000;
    return { ...partial, durationMs, slow: durationMs > profile.settings.performance.max_review_time_ms };
  }
}

/** Where an action's relative paths are read from: its own directory, else the session's. */
function cwdOf(action: ProposedAction, session: ReviewSession): string | undefined {
  return action.cwd ?? session.context.cwd;
}

