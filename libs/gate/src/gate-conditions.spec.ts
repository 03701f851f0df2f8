import { compileCondition, ConditionError } from './gate-conditions.js';

const context = {
  environment: 'production',
  review: { risk: { severity: 'high', score: 0.7 }, rule_hits: ['prod_deploy'] },
  action: { tool: 'Bash', input: { command: 'kubectl apply -f deploy/' } },
  cost: { run_usd: 41.5 },
};

describe('gate conditions', () => {
  it.each([
    [{ path: 'environment', equals: 'production' }, true],
    [{ path: 'environment', not_equals: 'production' }, false],
    [{ path: 'review.risk.severity', in: ['high', 'critical'] }, true],
    [{ path: 'cost.run_usd', gt: 40 }, true],
    [{ path: 'cost.run_usd', lte: 40 }, false],
    [{ path: 'action.input.command', matches: '^kubectl (apply|delete)' }, true],
    [{ path: 'review.rule_hits', contains: 'prod_deploy' }, true],
    [{ path: 'action.input.command', contains: 'deploy/' }, true],
    [{ path: 'plan.risk', exists: false }, true],
    [{ path: 'cost.missing', gt: 1 }, false],
    [{ all: [{ path: 'environment', equals: 'production' }, { not: { path: 'action.tool', equals: 'Read' } }] }, true],
    [{ any: [{ path: 'environment', equals: 'staging' }, { path: 'cost.run_usd', gte: 41.5 }] }, true],
  ])('%j → %s', (condition, expected) => {
    expect(compileCondition(condition)(context)).toBe(expected);
  });

  it.each([
    [{ path: 'x', between: [1, 2] }, /unknown operator between/],
    [{ path: 'x' }, /needs an operator/],
    [{ path: 'x..y', equals: 1 }, /dotted path/],
    [{ all: [] }, /non-empty list/],
    [{ all: [{ path: 'x', equals: 1 }], path: 'y' }, /stands alone/],
    [{ path: 'x', gt: 'ten' }, /must be a number/],
    [{ path: 'x', matches: '(' }, /when.matches/],
    ['environment == production', /must be an object/],
  ])('refuses %j naming the bad part', (condition, message) => {
    expect(() => compileCondition(condition)).toThrow(ConditionError);
    expect(() => compileCondition(condition)).toThrow(message);
  });
});
