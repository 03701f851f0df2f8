import { serialize, type ASTNode } from '@marcbachmann/cel-js';
import { parsePolicyExpression, policyFacts, type PolicyFacts } from './policy-expression.js';
import type { ConditionValue, RuleContext } from './review-rule.js';

/** Comparisons whose operands are worth showing beside the result. */
const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=', 'in']);
/** Macros whose arguments name a variable of their own: only their target can be worked out alone. */
const MACROS = new Set(['all', 'exists', 'exists_one', 'filter', 'map', 'has']);

type Parsed = ReturnType<typeof parsePolicyExpression>;
const PARSED = new Map<string, Parsed>();
const MAX_PARSED = 2_000;

function parsed(text: string): Parsed {
  let found = PARSED.get(text);
  if (!found) {
    if (PARSED.size >= MAX_PARSED) PARSED.clear();
    found = parsePolicyExpression(text);
    PARSED.set(text, found);
  }
  return found;
}

/** A CEL value as JSON: ints as numbers (as text past 2^53), maps as objects. */
export function jsonOf(value: unknown, depth = 0): unknown {
  if (depth > 16) return '…';
  if (typeof value === 'bigint') return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map((v) => jsonOf(v, depth + 1));
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), jsonOf(v, depth + 1)]));
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `${value.length} bytes`;
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonOf(v, depth + 1)]));
  return String(value);
}

function evaluated(text: string, facts: PolicyFacts): Pick<ConditionValue, 'value' | 'error'> {
  try {
    return { value: jsonOf(parsed(text)(facts as unknown as Record<string, unknown>)) };
  } catch (error) {
    return { error: (error as Error).message.split('\n')[0]! };
  }
}

/** `a && b && c` as [a, b, c]: the operands of a chain of the same operator. */
function chain(node: ASTNode, op: '&&' | '||'): ASTNode[] {
  return node.op === op ? (node.args as ASTNode[]).flatMap((n) => chain(n, op)) : [node];
}

const isLiteral = (node: ASTNode) => node.op === 'value';

/** The operands of a comparison or a call that can be worked out on their own: not literals, not macro bodies. */
function operandsOf(node: ASTNode): ASTNode[] {
  if (COMPARISONS.has(node.op)) return (node.args as ASTNode[]).filter((n) => !isLiteral(n));
  if (node.op === 'rcall') {
    const [name, target, args] = node.args as [string, ASTNode, ASTNode[]];
    return [target, ...(MACROS.has(name) ? [] : args)].filter((n) => !isLiteral(n));
  }
  if (node.op === 'call') {
    const [name, args] = node.args as [string, ASTNode[]];
    return MACROS.has(name) ? [] : args.filter((n) => !isLiteral(n));
  }
  return [];
}

function explainNode(node: ASTNode, facts: PolicyFacts): ConditionValue {
  const text = serialize(node);
  const part: ConditionValue = { condition: text, ...evaluated(text, facts) };
  if (node.op === '&&' || node.op === '||') part.parts = chain(node, node.op).map((n) => explainNode(n, facts));
  else if (node.op === '!_') part.parts = [explainNode(node.args as ASTNode, facts)];
  else {
    // What was compared: a value that cannot be worked out alone (a macro's own variable) is left out.
    const operands = operandsOf(node)
      .map((n) => ({ condition: serialize(n), ...evaluated(serialize(n), facts) }))
      .filter((p) => p.error === undefined);
    if (operands.length) part.parts = operands;
  }
  return part;
}

/**
 * What a `when` expression gave on the action of a review, and each of its parts: every operand of its
 * && and || chains and of `!`, evaluated alone in the same environment and on the same facts as the rule,
 * and for a comparison or a call the values it compared (`session.failures` of `session.failures >= 3`).
 */
export function explainPolicyExpression(expression: string, context: RuleContext): ConditionValue {
  const facts = policyFacts(context);
  let ast: ASTNode;
  try {
    ast = parsed(expression).ast;
  } catch (error) {
    return { condition: `when: ${expression}`, error: (error as Error).message.split('\n')[0]! };
  }
  const root = explainNode(ast, facts);
  return { ...root, condition: `when: ${root.condition}` };
}
