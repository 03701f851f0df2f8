import { decisionFromVerdict, type Verdict } from './decision-policy.js';

const verdict = (overrides: Partial<Verdict>): Verdict => ({
  action_id: 'a1',
  verdict: 'allow',
  reasons: ['Read: no rule objects (file_read).'],
  risk: { score: 0.1, severity: 'low', factors: ['file_read'] },
  confidence: 0.6,
  action: { kind: 'tool_use', tool: 'Read', input: { file_path: 'README.md' } },
  ...overrides,
});

describe('decisionFromVerdict', () => {
  it('allows what the reviewer allows', () => {
    expect(decisionFromVerdict(verdict({}))).toMatchObject({ action_id: 'a1', decision: 'allow', decided_by: 'reviewer' });
  });

  it('allows a warned action and passes the warning on', () => {
    const decision = decisionFromVerdict(verdict({ verdict: 'warn', reasons: ['Recursive deletion of dist'] }));
    expect(decision).toMatchObject({ decision: 'allow', verdict: 'warn', reason: 'Allowed with a warning: Recursive deletion of dist' });
  });

  it('runs the modified input of a modify verdict', () => {
    const decision = decisionFromVerdict(verdict({ verdict: 'modify', modified_input: { command: 'rm -ri dist' } }));
    expect(decision).toMatchObject({ decision: 'allow', updated_input: { command: 'rm -ri dist' } });
  });

  it('denies a modify verdict that lacks the modified input', () => {
    expect(decisionFromVerdict(verdict({ verdict: 'modify' }))).toMatchObject({ decision: 'deny', decided_by: 'policy' });
  });

  it('denies what needs an approval nobody gave (fail closed)', () => {
    expect(decisionFromVerdict(verdict({ verdict: 'require_approval', reasons: ['Production deploy'] }))).toMatchObject({
      decision: 'deny',
      decided_by: 'policy',
    });
  });

  it('hands an approval to the agent\'s own user when the proposal asks so: allow with ask_user, the change kept', () => {
    expect(decisionFromVerdict(verdict({ verdict: 'require_approval', reasons: ['Installs a system package'] }), true)).toEqual({
      action_id: 'a1',
      verdict: 'require_approval',
      reasons: ['Installs a system package'],
      decision: 'allow',
      ask_user: true,
      reason: 'Installs a system package',
      decided_by: 'reviewer',
    });
    expect(decisionFromVerdict(verdict({ verdict: 'require_approval', modified_input: { command: 'x' } }), true)).toMatchObject({ ask_user: true, updated_input: { command: 'x' } });
    // Only require_approval is handed over: a block stays a block.
    expect(decisionFromVerdict(verdict({ verdict: 'block', reasons: ['No'] }), true)).toMatchObject({ decision: 'deny' });
  });

  it('denies a blocked action with the reviewer\'s reason', () => {
    expect(decisionFromVerdict(verdict({ verdict: 'block', reasons: ['Recursive deletion of /'] }))).toMatchObject({
      decision: 'deny',
      reason: 'Recursive deletion of /',
      reasons: ['Recursive deletion of /'],
    });
  });
});
