import { Environment, type ParseResult } from '@marcbachmann/cel-js';
import { readToolCall } from '@warden/actions';
import { DerivedValue } from '../derived-value.js';
import { deletedPaths } from '../parsing/deletions.js';
import { globMatches, isInside, secretLike } from './policy-functions.js';
import { policyPrefilter, type PolicyPrefilter } from './policy-prefilter.js';
import type { RuleContext } from './review-rule.js';

/**
 * The facts a custom rule's `when` expression (CEL) reads: the action, the agent and its session. Every
 * field is always present (an empty string or list when the action has none), so that an expression never
 * fails on a missing key. Integers are CEL `int`s. Documented, with examples, in apps/reviewer/README.md.
 */
export interface PolicyFacts {
  action: {
    /** The tool as the agent names it: Bash, shell, run_shell_command, Write, mcp__github__create_issue … */
    tool: string;
    /** Warden's reading of the tool, the same for every agent: shell, read, search, write, edit, delete, fetch, delegate, mcp, message, poll, kill, other. */
    tool_kind: string;
    /** tool_use, file_operation, system_command or message. */
    kind: string;
    intents: string[];
    /** The shell line ('' when the action runs none). */
    command: string;
    commands: PolicyCommand[];
    /** Every path the action touches, resolved against the session's directory. */
    paths: string[];
    /** The paths it creates, changes or deletes. */
    written: string[];
    /** The paths it only reads (or lists, or searches): `paths` less `written`. */
    read: string[];
    /** The paths it deletes (rm, rmdir, unlink, shred, find -delete; a deleting tool's paths). */
    deleted: string[];
    /** The paths among `paths` outside the session's expected paths. */
    outside: string[];
    urls: string[];
    packages: string[];
    privileged: boolean;
    cwd: string;
    /** The tool's input as the agent sent it. */
    input: Record<string, unknown>;
  };
  agent: {
    id: string;
    kind: string;
    /** Its automation level on the ladder (0-4), as the reviewer last read it; -1 when it has none or the ladder is off. */
    level: bigint;
  };
  session: {
    goal: string;
    phase: string;
    environment: string;
    /** Actions reviewed in this session so far (this one not counted). */
    actions: bigint;
    /** Of those, the ones whose outcome was an error. */
    failures: bigint;
    /** Errors in a row at the end of the session's outcomes. */
    failures_in_a_row: bigint;
    /** Types of the patterns reported on the session in the last ten minutes (scope_creep, repetitive_errors …). */
    patterns: string[];
    /** The last outcomes of the session's actions, the latest last (at most LAST_OUTCOMES). */
    last_outcomes: PolicyOutcome[];
    /** USD the session's run has cost, as the cost breaker counted it (to the cent, 0 before the first cost). */
    spend_usd: number;
  };
  /** The deployment's labels (the reviewer's `deployment` settings). */
  env: {
    environment: string;
    cluster: string;
    labels: Record<string, string>;
  };
}

/** One outcome of an earlier action of the session. */
export interface PolicyOutcome {
  tool: string;
  /** success or error. */
  status: string;
  /** The error's message ('' on success). */
  error: string;
}

/** How many of the session's last outcomes an expression sees. */
const LAST_OUTCOMES = 5;

/** One simple command of the shell line. */
export interface PolicyCommand {
  /** The program's base name (`rm` of `/bin/rm`). */
  program: string;
  args: string[];
  /** Its redirections, in order: `op` as written (`>`, `>>`, `<`, `2>`, `<<` …) and the file, or a here-document's text. */
  redirects: PolicyRedirect[];
  /** The host, container or pod it runs on when not here (`ssh host cmd`, `kubectl exec pod -- cmd`), else ''. */
  remote: string;
  privileged: boolean;
  /** Not at the top of the line: inside `$(…)`, `bash -c`, xargs, an interpreter's code. */
  nested: boolean;
  background: boolean;
}

/** One redirection of a simple command. */
export interface PolicyRedirect {
  op: string;
  target: string;
}

const REDIRECT_SCHEMA = { op: 'string', target: 'string' };
const COMMAND_SCHEMA = { program: 'string', args: 'list<string>', redirects: 'list<Redirect>', remote: 'string', privileged: 'bool', nested: 'bool', background: 'bool' };
const OUTCOME_SCHEMA = { tool: 'string', status: 'string', error: 'string' };

const LIMITS = { maxAstNodes: 2_000, maxDepth: 64 };

/** The functions CEL's own library lacks. */
function withPolicyFunctions(environment: Environment): Environment {
  return environment
    .registerFunction('glob(string, string): bool', globMatches, {
      description: "Whether a path matches a glob (`**/migrations/**`, `~/.ssh/*`), as the rules' path conditions match.",
    })
    .registerFunction('inside(string, string): bool', isInside, {
      description: 'Whether a path is a directory or lies inside it.',
    })
    .registerFunction('secret_like(string): bool', secretLike, {
      description: 'Whether a text holds something shaped like a secret (an API key, a token, a private key).',
    });
}

/**
 * The environment every `when` is checked in: the facts' types, so that a misspelt variable or field,
 * or a comparison of a string with a number, refuses the rule when the configuration loads.
 */
const CHECKING = withPolicyFunctions(new Environment({ limits: LIMITS }))
  .registerType({ name: 'Redirect', schema: REDIRECT_SCHEMA })
  .registerType({ name: 'Command', schema: COMMAND_SCHEMA })
  .registerVariable({
    name: 'action',
    schema: {
      tool: 'string',
      tool_kind: 'string',
      kind: 'string',
      intents: 'list<string>',
      command: 'string',
      commands: 'list<Command>',
      paths: 'list<string>',
      written: 'list<string>',
      read: 'list<string>',
      deleted: 'list<string>',
      outside: 'list<string>',
      urls: 'list<string>',
      packages: 'list<string>',
      privileged: 'bool',
      cwd: 'string',
      input: 'map<string, dyn>',
    },
  })
  .registerType({ name: 'Outcome', schema: OUTCOME_SCHEMA })
  .registerVariable({ name: 'agent', schema: { id: 'string', kind: 'string', level: 'int' } })
  .registerVariable({
    name: 'session',
    schema: {
      goal: 'string',
      phase: 'string',
      environment: 'string',
      actions: 'int',
      failures: 'int',
      failures_in_a_row: 'int',
      patterns: 'list<string>',
      last_outcomes: 'list<Outcome>',
      spend_usd: 'double',
    },
  })
  .registerVariable({ name: 'env', schema: { environment: 'string', cluster: 'string', labels: 'map<string, string>' } });

/**
 * The environment a checked `when` runs in: the same functions, the facts as they are. The typed one
 * would wrap the facts in its types again for every rule; checked once, they need no wrapping.
 */
const EVALUATING = withPolicyFunctions(new Environment({ limits: LIMITS }).registerVariable('action', 'dyn').registerVariable('agent', 'dyn').registerVariable('session', 'dyn').registerVariable('env', 'dyn'));

/** An expression parsed in the environment the rules run in: what explains its parts evaluates (policy-expression-parts.ts). */
export function parsePolicyExpression(expression: string): ParseResult {
  return EVALUATING.parse(expression);
}

/** Why an expression cannot be used: CEL's message, with the line and the position it points at. */
export class PolicyExpressionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyExpressionError';
  }
}

export type PolicyCondition = (context: RuleContext) => boolean;

/** Whether an expression reads what depends on the session (its facts, or the session's scope). */
export function readsSession(expression: string): boolean {
  return /\b(?:session|agent)\b|\.outside\b/.test(expression);
}

/**
 * Compiles a `when` expression once: a syntax error, an unknown variable or field, or a result that is not
 * a bool throws a PolicyExpressionError. The condition it returns is false when the expression fails on an
 * action (a division by zero, an index out of range): a rule that cannot say does not fire. `prefilter`:
 * what its syntax tells of the actions it cannot be true for (policy-prefilter.ts), for the rule to look
 * at before the condition and for the engine's index.
 */
export function compilePolicyCondition(expression: string): { condition: PolicyCondition; prefilter: PolicyPrefilter } {
  const checked = CHECKING.check(expression);
  if (!checked.valid) throw new PolicyExpressionError(checked.error?.message ?? 'not a valid CEL expression');
  if (checked.type !== 'bool') throw new PolicyExpressionError(`the expression gives ${checked.type}; a condition must give bool`);
  const evaluate = EVALUATING.parse(expression);
  const condition: PolicyCondition = (context) => {
    try {
      return evaluate(policyFacts(context)) === true;
    } catch {
      return false;
    }
  };
  return { condition, prefilter: policyPrefilter(evaluate.ast) };
}

/**
 * A list made here: CEL takes only this realm's arrays, and an analysis copied from the review cache
 * (structuredClone) may hold another's. The input is copied as JSON for the same reason.
 */
const list = (values: readonly string[]): string[] => Array.from(values, String);

function jsonCopy(input: Record<string, unknown>): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(input)) as Record<string, unknown>;
  } catch {
    // An input given in process that JSON cannot hold (a cycle): the expression sees none.
    return {};
  }
}

type ActionFacts = Omit<PolicyFacts['action'], 'outside'>;

/**
 * The action's part of the facts, made once per action and kept on it (not in a WeakMap: see DerivedValue).
 * What costs more than it reads (the input's copy) is made when an expression first reads it.
 */
const ACTION_FACTS = new DerivedValue((action: RuleContext['action']): ActionFacts => {
  let input: Record<string, unknown> | undefined;
  return {
    tool: action.tool,
    tool_kind: readToolCall(action.tool, action.input).kind,
    kind: action.kind,
    intents: list(action.intents),
    command: action.command ?? '',
    commands: Array.from(action.segments, (s) => ({
      program: s.name,
      args: list(s.argv).slice(1),
      redirects: Array.from(s.redirects, (r) => ({ op: r.operator, target: r.target })),
      remote: s.remoteHost ?? '',
      privileged: s.privileged,
      nested: s.nested,
      background: s.background,
    })),
    paths: list(action.paths),
    written: list(action.writtenPaths),
    read: list(action.paths.filter((p) => !action.writtenPaths.includes(p))),
    deleted: list(deletedPaths(action)),
    urls: list(action.urls),
    packages: list(action.packages),
    privileged: action.privileged,
    cwd: action.cwd ?? '',
    get input() {
      return (input ??= jsonCopy(action.input));
    },
  };
});

/**
 * The facts of one review, made once for all the rules that ask and only when one does (most rules'
 * prefilter turns the action away first). What costs more than it reads (the paths outside, the failures
 * in a row, the patterns) is worked out when an expression first reads it.
 */
const REVIEW_FACTS = new DerivedValue((context: RuleContext): PolicyFacts => {
  const { session } = context;
  const shared = ACTION_FACTS.of(context.action);
  let outside: string[] | undefined;
  // CEL reads own properties only: the action's are copied one by one (its input's getter not run).
  const actionFacts: PolicyFacts['action'] = {
    tool: shared.tool,
    tool_kind: shared.tool_kind,
    kind: shared.kind,
    intents: shared.intents,
    command: shared.command,
    commands: shared.commands,
    paths: shared.paths,
    written: shared.written,
    read: shared.read,
    deleted: shared.deleted,
    get outside() {
      return (outside ??= shared.paths.filter((p) => !context.inScope(p)));
    },
    urls: shared.urls,
    packages: shared.packages,
    privileged: shared.privileged,
    cwd: shared.cwd,
    get input() {
      return shared.input;
    },
  };
  let inARow: bigint | undefined;
  let patterns: string[] | undefined;
  let outcomes: PolicyOutcome[] | undefined;
  return {
    action: actionFacts,
    agent: { id: session.agentId, kind: session.context.agentKind ?? '', level: BigInt(context.agentLevel ?? -1) },
    session: {
      goal: session.context.goal ?? '',
      phase: session.context.phase ?? '',
      environment: session.context.environment ?? '',
      actions: BigInt(session.actionsReviewed),
      failures: BigInt(session.failures),
      get failures_in_a_row() {
        return (inARow ??= BigInt(failuresInARow(session)));
      },
      get patterns() {
        return (patterns ??= [...new Set(session.activePatterns(session.lastSeen).map((p) => p.type))]);
      },
      get last_outcomes() {
        return (outcomes ??= lastOutcomes(session));
      },
      spend_usd: context.spendUsd ?? 0,
    },
    env: deploymentFacts(context.deployment),
  };
});

const NO_DEPLOYMENT: PolicyFacts['env'] = { environment: '', cluster: '', labels: {} };

/** The deployment's labels as an expression reads them: made once per settings object. */
const DEPLOYMENT_FACTS = new DerivedValue((deployment: NonNullable<RuleContext['deployment']>): PolicyFacts['env'] => ({
  environment: deployment.environment,
  cluster: deployment.cluster,
  labels: { ...deployment.labels },
}));

function deploymentFacts(deployment: RuleContext['deployment']): PolicyFacts['env'] {
  return deployment ? DEPLOYMENT_FACTS.of(deployment) : NO_DEPLOYMENT;
}

/** The session's last outcomes, the latest last (actions still waiting for theirs are passed over). */
function lastOutcomes(session: RuleContext['session']): PolicyOutcome[] {
  const outcomes: PolicyOutcome[] = [];
  for (let i = session.history.length - 1; i >= 0 && outcomes.length < LAST_OUTCOMES; i--) {
    const record = session.history[i]!;
    if (record.status !== 'pending') outcomes.unshift({ tool: record.tool, status: record.status, error: record.error?.message ?? '' });
  }
  return outcomes;
}

/** The facts of one review (see REVIEW_FACTS). */
export function policyFacts(context: RuleContext): PolicyFacts {
  return REVIEW_FACTS.of(context);
}

/** Errors in a row at the end of the session's outcomes (actions still waiting for theirs are passed over). */
function failuresInARow(session: RuleContext['session']): number {
  let count = 0;
  for (let i = session.history.length - 1; i >= 0 && session.history[i]!.status !== 'success'; i--) if (session.history[i]!.status === 'error') count++;
  return count;
}
