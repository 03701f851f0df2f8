import type { PayloadOf, Phase } from '@warden/contracts';
import { levelOf, type Measurement } from './measurement.js';

/**
 * Limits the intervention controller's resource throttling sets on a session beyond the iteration
 * limits and cost budgets (which shrink by its factors): the session's tokens, file operations and cost,
 * each counted from the throttle on. A later throttle can only lower them.
 */
export interface ThrottleLimits {
  max_tokens?: number;
  max_file_operations?: number;
  max_cost_usd?: number;
}

/** What a resource_throttling intervention asks of the breaker: its reduction factors and the limits it enforces. */
export function throttleOf(issued: PayloadOf<'intervention.issued'>): { factors: { iterations?: number; cost?: number }; limits: ThrottleLimits } {
  const factors = issued.reduction_factors ?? {};
  const limits = issued.limits ?? {};
  return {
    factors: { ...(factors.iterations !== undefined ? { iterations: factors.iterations } : {}), ...(factors.cost !== undefined ? { cost: factors.cost } : {}) },
    limits: {
      ...(limits.max_tokens !== undefined ? { max_tokens: limits.max_tokens } : {}),
      ...(limits.max_file_operations !== undefined ? { max_file_operations: limits.max_file_operations } : {}),
      ...(limits.max_cost_usd !== undefined ? { max_cost_usd: limits.max_cost_usd } : {}),
    },
  };
}

/** What the session used so far, counted from its first event, against those limits. */
export interface SessionUsage {
  tokens: number;
  file_operations: number;
}

/** Tools that write, edit or delete files: what "file operations" counts. */
const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'str_replace_editor', 'create', 'edit']);

export function isFileOperation(action: { tool?: string; kind?: string }): boolean {
  return action.kind === 'file_operation' || (action.tool !== undefined && FILE_TOOLS.has(action.tool));
}

/** The lower of two optional limits. */
export function tighter(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}

/** The cost breaker's reading of the session's tokens against the throttled token limit. */
export function readTokens(usage: SessionUsage, limit: number, warning: number, phase?: Phase): Measurement {
  const level = levelOf(usage.tokens, limit, warning);
  const base = { breaker: 'cost' as const, current: usage.tokens, threshold: limit, ...(phase ? { phase } : {}) };
  if (level === 'trip') {
    return {
      ...base,
      level,
      reason: 'TOKEN_LIMIT_EXCEEDED',
      suggestion: `The session used ${usage.tokens} tokens, past the limit of ${limit} set when it was throttled. Summarise what you have and stop, or ask an operator for more.`,
    };
  }
  if (level === 'warning') return { ...base, level, reason: 'APPROACHING_TOKEN_LIMIT', suggestion: `${limit - usage.tokens} tokens left under the throttled limit.` };
  return { ...base, level };
}

/** The iteration breaker's reading of the session's file operations against the throttled limit. */
export function readFileOperations(usage: SessionUsage, limit: number, warning: number, phase?: Phase): Measurement {
  const base = { breaker: 'iteration' as const, current: usage.file_operations, threshold: limit, ...(phase ? { phase } : {}) };
  // Like the iteration limit: `limit` operations are allowed, the one after trips.
  if (usage.file_operations > limit) {
    return {
      ...base,
      level: 'trip',
      reason: 'FILE_OPERATION_LIMIT_EXCEEDED',
      suggestion: `The session made ${usage.file_operations} file operations, past the limit of ${limit} set when it was throttled. Work in smaller batches and check what you changed before going on.`,
    };
  }
  if (usage.file_operations >= limit * warning) {
    return { ...base, level: 'warning', reason: 'APPROACHING_FILE_OPERATION_LIMIT', suggestion: `${limit - usage.file_operations} file operations left under the throttled limit.` };
  }
  return { ...base, level: 'ok' };
}
