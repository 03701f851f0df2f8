import { parseAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import { RiskCalculator } from './risk-calculator.js';

const thresholds = { low_threshold: 0.3, medium_threshold: 0.6, critical_threshold: 0.95 };
const calculator = new RiskCalculator(thresholds);
const everywhere = () => true;

describe('RiskCalculator (seed 001)', () => {
  it('calculates high risk for file deletion', () => {
    const action = parseAction({ kind: 'file_operation', tool: 'fs', input: { operation: 'delete', path: '/important/file.txt' } });
    const risk = calculator.calculate(action, new ReviewSession('a', 's', 0), everywhere, [], 0);
    expect(risk.score).toBeGreaterThan(0.7);
    expect(risk.severity).toBe('high');
  });

  it('applies the scope modifier correctly', () => {
    const action = parseAction({ kind: 'file_operation', tool: 'fs', input: { operation: 'write', path: '/outside/scope/file.txt' } });
    const inProject = (path: string) => path.startsWith('/project/');
    const risk = calculator.calculate(action, new ReviewSession('a', 's', 0), inProject, [], 0);
    expect(risk.score).toBeGreaterThan(0.5);
    expect(risk.factors).toContain('out_of_scope');
    expect(risk.modifiers).toEqual([expect.objectContaining({ name: 'scope', value: 0.3 })]);
  });

  it('takes a directory the line only enters for where it runs, not for a path it touches outside', () => {
    const inProject = (path: string) => path.startsWith('/home/u/proj');
    const risk = (command: string) => calculator.calculate(parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, '/home/u/proj'), new ReviewSession('a', 's', 0), inProject, [], 0);
    expect(risk('cd /home/u/stack && systemctl status nginx').modifiers).toEqual([]);
    expect(risk('cd "X:/03_ACG/Odoo_Docker" && docker-compose ps').modifiers).toEqual([]);
    expect(risk('cd /home/u/stack && rm -rf build').modifiers).toEqual([expect.objectContaining({ name: 'scope', value: 0.3 })]);
    expect(risk('cd .. && rm -rf build').modifiers).toEqual([expect.objectContaining({ name: 'scope', value: 0.3 })]);
    expect(risk('cd /home/u/stack && cat .env').modifiers).toEqual([expect.objectContaining({ name: 'scope', value: 0.1 })]);
  });

  it('raises risk less for a line that only reads outside than for one that writes anything', () => {
    const inProject = (path: string) => path.startsWith('/home/u/proj');
    const risk = (command: string) => calculator.calculate(parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, '/home/u/proj'), new ReviewSession('a', 's', 0), inProject, [], 0);
    // An unknown program beside a read of its settings: high, not critical (a critical risk is always blocked).
    const read = risk('mytool status && cat /home/u/.config/mytool/settings.toml');
    expect({ modifiers: read.modifiers, severity: read.severity, factors: read.factors }).toEqual({ modifiers: [expect.objectContaining({ name: 'scope', value: 0.1 })], severity: 'high', factors: expect.arrayContaining(['out_of_scope']) });
    expect(risk('mytool status && cp notes.txt /home/u/.config/mytool/settings.toml').modifiers).toEqual([expect.objectContaining({ name: 'scope', value: 0.3 })]);
  });

  it('raises risk with each earlier failure of the same action: 0.1, 0.2, then 0.4', () => {
    const session = new ReviewSession('a', 's', 0);
    const action = parseAction({ kind: 'tool_use', tool: 'Bash', input: { command: 'npm test' } });
    const scores: number[] = [];
    for (let i = 0; i < 4; i++) {
      scores.push(calculator.calculate(action, session, everywhere, [], 0).score);
      session.recordAction(action, `a${i}`, 'allow', 0);
      session.recordOutcome({ actionId: `a${i}`, status: 'error', error: { message: 'failed' } }, 0);
    }
    expect(scores).toEqual([0.3, 0.4, 0.5, 0.7]);
    expect(calculator.calculate(action, session, everywhere, [], 0).factors).toContain('repeated_failure');
  });

  it('counts failures only since the session last changed a file: testing again after an edit checks the fix', () => {
    const session = new ReviewSession('a', 's', 0);
    const test = parseAction({ kind: 'tool_use', tool: 'Bash', input: { command: 'npx vitest run' } });
    const edit = parseAction({ kind: 'tool_use', tool: 'Edit', input: { file_path: '/work/src/weather.ts', old_string: 'a', new_string: 'b' } });
    session.recordAction(test, 't1', 'allow', 0);
    session.recordOutcome({ actionId: 't1', status: 'error', error: { message: 'FAIL tests/weather.test.ts' } }, 0);
    expect(calculator.calculate(test, session, everywhere, [], 0).factors).toContain('repeated_failure');
    session.recordAction(edit, 'e1', 'allow', 0);
    session.recordOutcome({ actionId: 'e1', status: 'success' }, 0);
    expect(calculator.calculate(test, session, everywhere, [], 0).factors).not.toContain('repeated_failure');
  });

  it('counts a package installed since as a change: type-checking again after installing missing types checks the fix', () => {
    const session = new ReviewSession('a', 's', 0);
    const check = parseAction({ kind: 'tool_use', tool: 'powershell', input: { command: '.\\node_modules\\.bin\\tsc --noEmit' } });
    const install = parseAction({ kind: 'tool_use', tool: 'powershell', input: { command: 'npm install --save-dev @types/jszip' } });
    session.recordAction(check, 't1', 'allow', 0);
    session.recordOutcome({ actionId: 't1', status: 'error', error: { message: "error TS2307: Cannot find module 'jszip'" } }, 0);
    expect(calculator.calculate(check, session, everywhere, [], 0).factors).toContain('repeated_failure');
    session.recordAction(install, 'i1', 'allow', 0);
    session.recordOutcome({ actionId: 'i1', status: 'success' }, 0);
    expect(calculator.calculate(check, session, everywhere, [], 0).factors).not.toContain('repeated_failure');
  });

  it('adds the privilege and pattern modifiers', () => {
    const session = new ReviewSession('a', 's', 0);
    session.recordPattern({ type: 'scope_creep', severity: 'high', confidence: 1, shadow: false, at: 0 });
    session.recordPattern({ type: 'goal_drift', severity: 'critical', confidence: 1, shadow: true, at: 0 });
    const risk = calculator.calculate(parseAction({ kind: 'tool_use', tool: 'Bash', input: { command: 'sudo ls /root' } }), session, everywhere, [], 1000);
    expect(risk.modifiers.map((m) => m.name)).toEqual(['privilege', 'pattern']);
    expect(risk.factors).toEqual(expect.arrayContaining(['privileged', 'pattern:scope_creep']));
    expect(risk.factors).not.toContain('pattern:goal_drift');
  });

  it('lets a pattern raise caution but never by itself make an action critical', () => {
    const session = new ReviewSession('a', 's', 0);
    session.recordPattern({ type: 'bypass_trap', severity: 'high', confidence: 0.96, shadow: false, at: 0 });
    const deletion = parseAction({ kind: 'tool_use', tool: 'Bash', input: { command: 'rm -f data/raw/prs.json' } }, '/work/app');
    const risk = calculator.calculate(deletion, session, everywhere, [], 1000);
    expect(risk.factors).toContain('pattern:bypass_trap');
    expect(risk.score).toBeGreaterThan(0.8);
    expect(risk.severity).toBe('high');
    // Critical already without it: the pattern adds to it.
    const sudoRm = calculator.calculate(parseAction({ kind: 'tool_use', tool: 'Bash', input: { command: 'sudo rm -rf /var/lib/app' } }, '/work/app'), session, () => false, [], 1000);
    expect(sudoRm.severity).toBe('critical');
  });

  it('never goes above 1 and rule findings only raise it', () => {
    const action = parseAction({ kind: 'tool_use', tool: 'Read', input: { file_path: '/x' } });
    const finding = { rule: 'r', verdict: 'warn' as const, score: 0.75, severity: 'high' as const, factors: ['secrets'], reason: 'x' };
    const risk = calculator.calculate(action, new ReviewSession('a', 's', 0), () => false, [finding], 0);
    expect(risk.score).toBe(0.75);
    expect(risk.factors).toContain('secrets');
  });
});
