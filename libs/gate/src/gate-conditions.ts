/**
 * Gate conditions as data, not code (seed 002 §6 writes them as functions; configuration cannot): a
 * test on one value of the gate context, or all / any / not of other conditions.
 *
 * ```yaml
 * when:
 *   all:
 *     - { path: environment, equals: production }
 *     - { path: review.risk.severity, in: [high, critical] }
 *     - not: { path: action.tool, equals: Read }
 * ```
 */
export type Scalar = string | number | boolean | null;

export interface Test {
  /** Dotted path into the gate context, e.g. `action.input.command`. */
  path: string;
  equals?: Scalar;
  not_equals?: Scalar;
  in?: Scalar[];
  gt?: number;
  gte?: number;
  lt?: number;
  lte?: number;
  /** Regular expression the value (as text) must match. */
  matches?: string;
  /** The value (a list or a text) contains this. */
  contains?: Scalar;
  /** The value is present (true) or absent (false). */
  exists?: boolean;
}

export type Condition = { all: Condition[] } | { any: Condition[] } | { not: Condition } | Test;

const OPERATORS = ['equals', 'not_equals', 'in', 'gt', 'gte', 'lt', 'lte', 'matches', 'contains', 'exists'] as const;

export class ConditionError extends Error {}

/** A condition ready to evaluate: regular expressions compiled once. */
export type CompiledCondition = (context: unknown) => boolean;

/** Checks a condition read from configuration and compiles it; throws ConditionError naming the bad part. */
export function compileCondition(raw: unknown, where = 'when'): CompiledCondition {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ConditionError(`${where} must be an object`);
  const node = raw as Record<string, unknown>;
  const keys = Object.keys(node);
  if ('all' in node || 'any' in node) {
    const kind = 'all' in node ? 'all' : 'any';
    if (keys.length !== 1) throw new ConditionError(`${where}: "${kind}" stands alone (found ${keys.join(', ')})`);
    const items = node[kind];
    if (!Array.isArray(items) || items.length === 0) throw new ConditionError(`${where}.${kind} must be a non-empty list`);
    const parts = items.map((item, i) => compileCondition(item, `${where}.${kind}[${i}]`));
    return kind === 'all' ? (c) => parts.every((p) => p(c)) : (c) => parts.some((p) => p(c));
  }
  if ('not' in node) {
    if (keys.length !== 1) throw new ConditionError(`${where}: "not" stands alone (found ${keys.join(', ')})`);
    const inner = compileCondition(node.not, `${where}.not`);
    return (c) => !inner(c);
  }
  if (typeof node.path !== 'string' || !/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/.test(node.path)) {
    throw new ConditionError(`${where}.path must be a dotted path such as review.risk.severity`);
  }
  const path = node.path.split('.');
  const unknown = keys.filter((k) => k !== 'path' && !(OPERATORS as readonly string[]).includes(k));
  if (unknown.length) throw new ConditionError(`${where}: unknown operator ${unknown.join(', ')} (use ${OPERATORS.join(', ')})`);
  const operators = keys.filter((k) => k !== 'path');
  if (operators.length === 0) throw new ConditionError(`${where}: needs an operator (${OPERATORS.join(', ')})`);
  const tests = operators.map((op) => compileTest(op, node[op], `${where}.${op}`));
  return (context) => {
    const value = valueAt(context, path);
    return tests.every((t) => t(value));
  };
}

function isScalar(value: unknown): value is Scalar {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function compileTest(op: string, operand: unknown, where: string): (value: unknown) => boolean {
  switch (op) {
    case 'equals':
    case 'not_equals': {
      if (!isScalar(operand)) throw new ConditionError(`${where} must be a string, number, boolean or null`);
      return op === 'equals' ? (v) => v === operand : (v) => v !== operand;
    }
    case 'in': {
      if (!Array.isArray(operand) || !operand.every(isScalar)) throw new ConditionError(`${where} must be a list of values`);
      return (v) => operand.includes(v as Scalar);
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      if (typeof operand !== 'number' || !Number.isFinite(operand)) throw new ConditionError(`${where} must be a number`);
      const compare = { gt: (v: number) => v > operand, gte: (v: number) => v >= operand, lt: (v: number) => v < operand, lte: (v: number) => v <= operand }[op];
      return (v) => typeof v === 'number' && compare(v);
    }
    case 'matches': {
      if (typeof operand !== 'string') throw new ConditionError(`${where} must be a regular expression`);
      let pattern: RegExp;
      try {
        pattern = new RegExp(operand);
      } catch (error) {
        throw new ConditionError(`${where}: ${(error as Error).message}`);
      }
      return (v) => (typeof v === 'string' || typeof v === 'number') && pattern.test(String(v));
    }
    case 'contains': {
      if (!isScalar(operand)) throw new ConditionError(`${where} must be a string, number, boolean or null`);
      return (v) => (Array.isArray(v) ? v.includes(operand) : typeof v === 'string' && typeof operand === 'string' && v.includes(operand));
    }
    case 'exists': {
      if (typeof operand !== 'boolean') throw new ConditionError(`${where} must be true or false`);
      return (v) => (v !== undefined && v !== null) === operand;
    }
    default:
      throw new ConditionError(`${where}: unknown operator`);
  }
}

/** The value at a path; undefined when any step is missing. */
export function valueAt(context: unknown, path: readonly string[]): unknown {
  let value = context;
  for (const step of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}
