import { serialize, type ASTNode } from '@marcbachmann/cel-js';
import { parsePolicyExpression } from '../rules/policy-expression.js';

const FACTS = new Set(['action', 'agent', 'session']);

const isNode = (value: unknown): value is ASTNode => typeof value === 'object' && value !== null && typeof (value as ASTNode).op === 'string' && 'args' in value;

/** Whether a node reads the action, the agent or the session anywhere in it. */
function readsFacts(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(readsFacts);
  if (!isNode(node)) return false;
  if (node.op === 'id') return FACTS.has(node.args as string);
  return readsFacts(node.args);
}

function chain(node: ASTNode, op: '&&' | '||'): ASTNode[] {
  return node.op === op ? (node.args as ASTNode[]).flatMap((n) => chain(n, op)) : [node];
}

/** The value of a part that reads no facts: what it always gives. */
function constantOf(node: ASTNode): { known: boolean; value?: unknown } {
  if (readsFacts(node)) return { known: false };
  try {
    return { known: true, value: parsePolicyExpression(serialize(node))({}) };
  } catch {
    return { known: false };
  }
}

/** `<lhs> == <literal>` and `<lhs> != <literal>`, with the literal's value. */
function comparison(node: ASTNode): { lhs: string; op: '==' | '!='; value: unknown } | undefined {
  if (node.op !== '==' && node.op !== '!=') return undefined;
  const [left, right] = node.args as [ASTNode, ASTNode];
  const [other, literal] = right.op === 'value' ? [left, right] : left.op === 'value' ? [right, left] : [undefined, undefined];
  if (!other || !literal || !readsFacts(other)) return undefined;
  return { lhs: serialize(other), op: node.op, value: literal.args };
}

/** What lint can tell of a `when` expression without an action. */
export interface ExpressionVerdict {
  /** Never true: constant false, a part of its && chain constant false, or two parts that contradict. */
  never?: string;
  /** Always true: constant true, or a part of its || chain constant true. */
  always?: string;
  /** Tool names it requires (`action.tool == "…"` parts of its && chain). */
  tools: string[];
}

const shown = (value: unknown) => JSON.stringify(typeof value === 'bigint' ? Number(value) : value);

/** Reads an expression for what makes it never or always true. It is assumed to compile (the loader checks that first). */
export function analyseExpression(expression: string): ExpressionVerdict {
  const ast = parsePolicyExpression(expression).ast;
  const whole = constantOf(ast);
  if (whole.known) return whole.value === true ? { always: `"${expression}" is always true: it reads nothing of the action, the agent or the session`, tools: [] } : { never: `"${expression}" is always ${shown(whole.value)}: it reads nothing of the action, the agent or the session`, tools: [] };
  const verdict: ExpressionVerdict = { tools: [] };
  const conjuncts = chain(ast, '&&');
  for (const part of conjuncts) {
    const constant = constantOf(part);
    if (constant.known && constant.value !== true) verdict.never ??= `its part "${serialize(part)}" is always ${shown(constant.value)}`;
  }
  const equal = new Map<string, unknown>();
  const comparisons = conjuncts.map(comparison).filter((c) => c !== undefined);
  for (const c of comparisons) {
    if (c.op !== '==') continue;
    const earlier = equal.get(c.lhs);
    if (earlier !== undefined && earlier !== c.value) verdict.never ??= `${c.lhs} cannot be both ${shown(earlier)} and ${shown(c.value)}`;
    equal.set(c.lhs, c.value);
    if (c.lhs === 'action.tool' && typeof c.value === 'string') verdict.tools.push(c.value);
  }
  for (const c of comparisons) if (c.op === '!=' && equal.has(c.lhs) && equal.get(c.lhs) === c.value) verdict.never ??= `${c.lhs} cannot be both ${shown(c.value)} and not ${shown(c.value)}`;
  for (const part of chain(ast, '||')) {
    const constant = constantOf(part);
    if (constant.known && constant.value === true) verdict.always ??= `its part "${serialize(part)}" is always true`;
  }
  return verdict;
}

/** The expressions' text as CEL writes it back: the same condition spelt two ways reads the same. */
export function normalExpression(expression: string): string {
  try {
    return serialize(parsePolicyExpression(expression).ast);
  } catch {
    return expression;
  }
}
