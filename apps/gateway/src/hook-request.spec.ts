import { credentialsOf, type HookRequestError, policyOf } from './hook-request.js';

describe('the hook request', () => {
  it('reads the agent and its secret from the bearer token', () => {
    expect(credentialsOf('Bearer claude-code.s3cr3t-_x')).toEqual({ agentId: 'claude-code', secret: 's3cr3t-_x' });
    expect(credentialsOf('bearer  a.b.c')).toEqual({ agentId: 'a', secret: 'b.c' });
  });

  it.each([
    [undefined, /missing Authorization header/],
    ['Basic YTpi', /must be "Bearer <agent token>"/],
    ['Bearer nodot', /malformed/],
    ['Bearer .secret', /malformed/],
    ['Bearer agent.', /malformed/],
    ['Bearer a*b.secret', /malformed/],
  ])('refuses %s with 401 and the reason', (header, reason) => {
    expect(() => credentialsOf(header)).toThrow(reason);
    try {
      credentialsOf(header);
    } catch (error) {
      expect((error as HookRequestError).status).toBe(401);
    }
  });

  it('reads the answer settings from the query, with the defaults', () => {
    expect(policyOf({})).toEqual({ decide: false, approvals: 'auto', failOpenTools: [] });
    expect(policyOf({ decide: 'true', approvals: 'operator', failOpen: 'Read, Glob' })).toEqual({ decide: true, approvals: 'operator', failOpenTools: ['Read', 'Glob'] });
    expect(() => policyOf({ decide: 'maybe' })).toThrow(/decide must be true or false/);
    expect(() => policyOf({ approvals: 'boss' })).toThrow(/approvals must be one of auto, terminal, operator/);
    expect(() => policyOf({ decide: ['true', 'false'] })).toThrow(/given once/);
  });
});
