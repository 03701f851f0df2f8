import { readToolCall } from '@warden/actions';
import { DerivedValue } from '../derived-value.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import type { ShellSegment } from '../parsing/shell-command.js';
import { originOf } from './action-text.js';
import { regexTester } from './pattern-text.js';
import { globMatches, isInside } from './policy-functions.js';
import type { RuleContext, RuleNeeds } from './review-rule.js';

/**
 * What the reviewer tells from a `when` expression's syntax when the configuration loads, so that most
 * actions are turned away before the expression runs:
 * - `test`: a plain function of the action that is false whenever the expression cannot be true. It is
 *   made of the expression's own parts that read a field and compare it with a literal (`action.tool ==
 *   "Bash"`, `p.startsWith("https://svc/")`, `glob(p, "**∕infra/**")`, `"x" in action.intents`,
 *   `c.program == "kubectl"`, `…matches("re")` by the text the pattern requires), joined as the expression
 *   joins them: a part of a `&&` is enough, every side of a `||` is needed, `exists` over a list needs an
 *   element of which its own test holds. Anything else (`!`, `?:`, arithmetic, other functions, facts of
 *   the session's history) is left to the expression.
 * - `needs`: for the engine's index (RuleNeeds), the programs (`commands`) or URL origins (`origins`) an
 *   action must have when the expression says so the same way.
 * Why this is sound: `a && b` is true only when both are, `a || b` only when one is, `l.exists(v, b)` only
 * when `b` is true of an element; a part that errors is not true either. So a part that is false here is not
 * true there, and neither is the expression. policy-prefilter.spec.ts runs expressions with and without it.
 */
export interface PolicyPrefilter {
  test?: (context: RuleContext) => boolean;
  needs?: RuleNeeds;
}

type Test<S> = (subject: S) => boolean;

/** A node of cel-js's syntax tree. */
interface CelNode {
  op: string;
  args: unknown;
}
const isNode = (value: unknown): value is CelNode => typeof value === 'object' && value !== null && typeof (value as CelNode).op === 'string';
const operands = (node: CelNode): CelNode[] => (Array.isArray(node.args) ? node.args.filter(isNode) : []);
const stringValue = (node: unknown): string | undefined => (isNode(node) && node.op === 'value' && typeof node.args === 'string' ? node.args : undefined);

/** `action.tool`, `c.program`, `p`: the dotted name a node reads, or undefined for anything else. */
function nameOf(node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  if (node.op === 'id') return typeof node.args === 'string' ? node.args : undefined;
  if (node.op !== '.' || !Array.isArray(node.args)) return undefined;
  const [object, field] = node.args as [unknown, unknown];
  const base = nameOf(object);
  return base !== undefined && typeof field === 'string' ? `${base}.${field}` : undefined;
}

/** A list of records an expression can iterate (`action.commands`), and the fields of each record. */
interface Records<S> {
  items: (subject: S) => readonly ShellSegment[];
  scope: (variable: string) => Scope<ShellSegment>;
}

/** What the names an expression uses read, where it uses them: at its top, or inside a macro (`c` of `exists(c, …)`). */
interface Scope<S> {
  texts: ReadonlyMap<string, (subject: S) => string>;
  lists: ReadonlyMap<string, (subject: S) => readonly string[]>;
  flags: ReadonlyMap<string, (subject: S) => boolean>;
  records: ReadonlyMap<string, Records<S>>;
}

const toolKinds = new DerivedValue((action: ParsedAction) => readToolCall(action.tool, action.input).kind);
const argumentLists = new DerivedValue((segment: ShellSegment) => segment.argv.slice(1));

/** The facts' fields read from the review itself, as policyFacts builds them. */
const TOP: Scope<RuleContext> = {
  texts: new Map<string, (context: RuleContext) => string>([
    ['action.tool', ({ action }) => action.tool],
    ['action.tool_kind', ({ action }) => toolKinds.of(action)],
    ['action.kind', ({ action }) => action.kind],
    ['action.command', ({ action }) => action.command ?? ''],
    ['action.cwd', ({ action }) => action.cwd ?? ''],
    ['agent.id', ({ session }) => session.agentId],
    ['agent.kind', ({ session }) => session.context.agentKind ?? ''],
    ['session.goal', ({ session }) => session.context.goal ?? ''],
    ['session.phase', ({ session }) => session.context.phase ?? ''],
    ['session.environment', ({ session }) => session.context.environment ?? ''],
  ]),
  lists: new Map<string, (context: RuleContext) => readonly string[]>([
    ['action.intents', ({ action }) => action.intents],
    ['action.paths', ({ action }) => action.paths],
    ['action.written', ({ action }) => action.writtenPaths],
    ['action.urls', ({ action }) => action.urls],
    ['action.packages', ({ action }) => action.packages],
  ]),
  flags: new Map([['action.privileged', ({ action }: RuleContext) => action.privileged]]),
  records: new Map([['action.commands', { items: ({ action }: RuleContext) => action.segments, scope: commandScope }]]),
};

function commandScope(c: string): Scope<ShellSegment> {
  return {
    texts: new Map<string, (segment: ShellSegment) => string>([
      [`${c}.program`, (s) => s.name],
      [`${c}.remote`, (s) => s.remoteHost ?? ''],
    ]),
    lists: new Map([[`${c}.args`, (s: ShellSegment) => argumentLists.of(s)]]),
    flags: new Map<string, (segment: ShellSegment) => boolean>([
      [`${c}.privileged`, (s) => s.privileged],
      [`${c}.nested`, (s) => s.nested],
      [`${c}.background`, (s) => s.background],
    ]),
    records: new Map(),
  };
}

/** The scope inside `exists(v, …)` over a list of texts: `v` is the element. */
const elementScope = (v: string): Scope<string> => ({ texts: new Map([[v, (text: string) => text]]), lists: new Map(), flags: new Map(), records: new Map() });

const all = <S>(tests: Test<S>[]): Test<S> => (tests.length === 1 ? tests[0]! : (s) => tests.every((t) => t(s)));
const some = <S>(tests: Test<S>[]): Test<S> => (tests.length === 1 ? tests[0]! : (s) => tests.some((t) => t(s)));

/** `read(subject) <op> literal` for the string functions and operators whose JavaScript is CEL's. */
function textTest(name: string, literal: string): ((text: string) => boolean) | undefined {
  switch (name) {
    case '==':
      return (text) => text === literal;
    case '!=':
      return (text) => text !== literal;
    case 'startsWith':
      return (text) => text.startsWith(literal);
    case 'endsWith':
      return (text) => text.endsWith(literal);
    case 'contains':
      return (text) => text.includes(literal);
    case 'matches':
      try {
        // cel-js tests `new RegExp(pattern)`; a pattern JavaScript refuses fails the expression there too.
        return regexTester(new RegExp(literal));
      } catch {
        return () => false;
      }
    case 'glob':
      return (text) => globMatches(text, literal);
    case 'inside':
      return (text) => isInside(text, literal);
  }
  return undefined;
}

/** The field a node reads, compared by `name` with a literal: `[field, literal]`. */
function comparison(node: CelNode): { name: string; field: unknown; literal: string } | undefined {
  const args = Array.isArray(node.args) ? (node.args as unknown[]) : [];
  if (node.op === '==' || node.op === '!=') {
    const [left, right] = args;
    const literal = stringValue(right) ?? stringValue(left);
    if (literal === undefined) return undefined;
    return { name: node.op, field: stringValue(right) !== undefined ? left : right, literal };
  }
  if (node.op === 'rcall') {
    const [name, target, params] = args as [unknown, unknown, unknown];
    const literal = Array.isArray(params) && params.length === 1 ? stringValue(params[0]) : undefined;
    return typeof name === 'string' && literal !== undefined ? { name, field: target, literal } : undefined;
  }
  if (node.op === 'call') {
    const [name, params] = args as [unknown, unknown];
    if (typeof name !== 'string' || !Array.isArray(params) || params.length !== 2) return undefined;
    const literal = stringValue(params[1]);
    return literal !== undefined ? { name, field: params[0], literal } : undefined;
  }
  return undefined;
}

/** `list.exists(v, body)` (or `exists_one`): the list's name, the variable and the body. */
function existsOver(node: CelNode): { list: string; variable: string; body: CelNode } | undefined {
  if (node.op !== 'rcall' || !Array.isArray(node.args)) return undefined;
  const [name, target, macro] = node.args as [unknown, unknown, unknown];
  if ((name !== 'exists' && name !== 'exists_one') || !Array.isArray(macro) || macro.length !== 2) return undefined;
  const list = nameOf(target);
  const [variable, body] = macro as [unknown, unknown];
  if (list === undefined || !isNode(variable) || variable.op !== 'id' || typeof variable.args !== 'string' || !isNode(body)) return undefined;
  return { list, variable: variable.args, body };
}

/** A test false whenever `node` cannot be true in `scope`, or undefined when none can be told. */
function testOf<S>(node: CelNode, scope: Scope<S>): Test<S> | undefined {
  if (node.op === '&&') {
    const tests = operands(node).map((n) => testOf(n, scope));
    const known = tests.filter((t): t is Test<S> => t !== undefined);
    return known.length ? all(known) : undefined;
  }
  if (node.op === '||') {
    const tests = operands(node).map((n) => testOf(n, scope));
    return tests.length && tests.every((t) => t !== undefined) ? some(tests as Test<S>[]) : undefined;
  }
  if (node.op === 'in' && Array.isArray(node.args)) {
    const [member, list] = node.args as [unknown, unknown];
    const literal = stringValue(member);
    const read = scope.lists.get(nameOf(list) ?? '');
    return literal !== undefined && read ? (s) => read(s).includes(literal) : undefined;
  }
  const flag = scope.flags.get(nameOf(node) ?? '');
  if (flag) return flag;
  const exists = existsOver(node);
  if (exists) {
    const list = scope.lists.get(exists.list);
    if (list) {
      const element = testOf(exists.body, elementScope(exists.variable));
      return element && ((s) => list(s).some(element));
    }
    const records = scope.records.get(exists.list);
    if (records) {
      const element = testOf(exists.body, records.scope(exists.variable));
      return element && ((s) => records.items(s).some(element));
    }
    return undefined;
  }
  const compared = comparison(node);
  const read = compared && scope.texts.get(nameOf(compared.field) ?? '');
  const test = read && textTest(compared.name, compared.literal);
  return test && ((s) => test(read(s)));
}

/**
 * Keys an action must have one of for `node` to be true (the smallest set a part of a `&&` gives, every
 * side of a `||` together), or undefined; `element` gives them for the body of `exists` over `list`.
 */
function keysOf(node: CelNode, list: string, element: (body: CelNode, variable: string) => string[] | undefined, member?: (literal: string) => string): string[] | undefined {
  const parts = (n: CelNode) => operands(n).map((o) => keysOf(o, list, element, member));
  if (node.op === '&&') return parts(node).reduce<string[] | undefined>((best, keys) => (keys && (!best || keys.length < best.length) ? keys : best), undefined);
  if (node.op === '||') {
    const keys = parts(node);
    return keys.length && keys.every((k) => k !== undefined) ? [...new Set(keys.flat() as string[])] : undefined;
  }
  if (node.op === 'in' && member && Array.isArray(node.args)) {
    const literal = stringValue(node.args[0]);
    return literal !== undefined && nameOf(node.args[1]) === list ? [member(literal)] : undefined;
  }
  const exists = existsOver(node);
  return exists && exists.list === list ? element(exists.body, exists.variable) : undefined;
}

/** Keys of an element: what `body` says of the variable (`c.program == "git"`), joined as keysOf joins them. */
function elementKeys(body: CelNode, variable: string, keyOf: (name: string, field: string, literal: string) => string | undefined): string[] | undefined {
  if (body.op === '&&' || body.op === '||') {
    const keys = operands(body).map((o) => elementKeys(o, variable, keyOf));
    if (body.op === '||') return keys.length && keys.every((k) => k !== undefined) ? [...new Set(keys.flat() as string[])] : undefined;
    return keys.reduce<string[] | undefined>((best, k) => (k && (!best || k.length < best.length) ? k : best), undefined);
  }
  const compared = comparison(body);
  const name = compared && nameOf(compared.field);
  if (!compared || name === undefined) return undefined;
  const field = name === variable ? '' : name.startsWith(`${variable}.`) ? name.slice(variable.length + 1) : undefined;
  const key = field === undefined ? undefined : keyOf(compared.name, field, compared.literal);
  return key === undefined ? undefined : [key];
}

/** The program a command must run: `c.program == "git"`. */
const commandKey = (name: string, field: string, literal: string) => (name === '==' && field === 'program' ? literal : undefined);

/**
 * The origin every URL has that is `literal` (`u == "…"`) or starts with it, when it spells out its
 * scheme, host and the `/` after them (`u.startsWith("https://svc.example.com/")`): originOf reads both alike.
 */
function originKey(name: string, field: string, literal: string): string | undefined {
  if (field !== '') return undefined;
  if (name === '==') return originOf(literal);
  const scheme = literal.indexOf('://');
  return name === 'startsWith' && scheme > 0 && literal.indexOf('/', scheme + 3) >= 0 ? originOf(literal) : undefined;
}

/** The prefilter of a checked expression, from cel-js's syntax tree of it. */
export function policyPrefilter(ast: unknown): PolicyPrefilter {
  if (!isNode(ast)) return {};
  const test = testOf(ast, TOP);
  const commands = keysOf(ast, 'action.commands', (body, v) => elementKeys(body, v, commandKey));
  const origins = commands ? undefined : keysOf(ast, 'action.urls', (body, v) => elementKeys(body, v, originKey), originOf);
  const needs: RuleNeeds | undefined = commands ? { commands } : origins ? { origins } : undefined;
  return { ...(test ? { test } : {}), ...(needs ? { needs } : {}) };
}
