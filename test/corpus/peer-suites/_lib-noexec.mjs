// Reader for emilgelman/noexec's detector tests (src/detectors/__tests__/*.test.ts, vitest). Used by noexec.mjs.
//
// Each test file is parsed, never run, and walked with the evaluator of _lib-ts-eval.mjs: describe / it blocks,
// `const` bindings (strings, arrays, objects, helper arrow functions such as `createToolUse(command)`), `for … of`
// loops over literal arrays and `await detectX(input[, config])` calls. A statement that cannot be evaluated stops the
// script when it holds a detector call. Each detector call is one case; the `expect(…)` assertions made on its result give the verdict:
//   expect(result).not.toBeNull() / .toBeTruthy() / .toBeDefined() → "detect"
//   expect(result).toBeNull() / .toBeFalsy() / .not.toBeTruthy()     → "none"
//   expect(result?.severity).toBe('low'|'medium'|'high')              → the severity (kept with the case)
// Cases whose input is not `{ command: <string> }`, or that pass a config other than one that only sets
// `enabled: true` and `severity`, are left out, and so are `describe.skip` / `it.skip` blocks (not run by vitest).
import { execFileSync } from 'node:child_process';
import { ts, tsEvaluator, OPAQUE } from './_lib-ts-eval.mjs';

export function readDetectorTests({ gitDir, commit, file }) {
  const text = execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${file}`], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const cases = [], skipped = [];
  const isDetector = name => /^detect[A-Z]\w*$/.test(name);
  const E = tsEvaluator(text, file, {
    // `detectX(input[, config])`: one case; its result collects the assertions made on it.
    specialCall: name => isDetector(name) && ((n, env, ctx) => {
      const input = E.ev(n.arguments[0], env, ctx);
      const config = n.arguments.length > 1 ? E.evOr(n.arguments[1], env, ctx, () => OPAQUE) : null;
      const res = { kind: 'result', detector: name, input, config, assertions: [], line: E.lineOfPos(n.getStart(E.sf)), describe: ctx.describe, test: ctx.test };
      cases.push(res);
      return res;
    }),
    // describe / it / test blocks (ctx carries the titles); it.skip / describe.skip / …todo are not run.
    statement(s, env, ctx) {
      const x = s.expression;
      if (!ts.isCallExpression(x)) return false;
      if (ts.isIdentifier(x.expression) && ['describe', 'it', 'test'].includes(x.expression.text)) {
        const title = E.ev(x.arguments[0], env, ctx);
        const c2 = x.expression.text === 'describe' ? { ...ctx, describe: [...ctx.describe, title] } : { ...ctx, test: title };
        E.runBody(x.arguments[1].body, E.child(env), c2);
        return true;
      }
      if (ts.isPropertyAccessExpression(x.expression) && ['it', 'test', 'describe'].includes(x.expression.expression.getText(E.sf))) {
        if (['skip', 'todo'].includes(x.expression.name.text)) { skipped.push({ file, line: E.lineOfPos(s.getStart(E.sf)), why: 'whole block ' + x.expression.getText(E.sf) + ' (not run)', command: null }); return true; }
        throw new Error(`${file}:${E.lineOfPos(s.getStart(E.sf))} unsupported ${x.expression.getText(E.sf)}`);
      }
      return false;
    },
    guard(node, e) {
      if (/\bdetect[A-Z]\w*\(/.test(node.getText(E.sf))) throw new Error(`${file}:${E.lineOfPos(node.getStart(E.sf))} cannot evaluate a detector call: ${e.message}`);
    },
  });
  E.runBody(E.sf, E.child(null), { describe: [], test: '' });

  // verdicts
  const out = [];
  for (const c of cases) {
    let verdict = null, severity = null;
    for (const a of c.assertions) {
      if (a.path === '') {
        let v = null;
        if (a.matcher === 'toBeNull') v = a.not ? 'detect' : 'none';
        else if (a.matcher === 'toBeTruthy' || a.matcher === 'toBeDefined') v = a.not ? 'none' : 'detect';
        else if (a.matcher === 'toBeFalsy') v = a.not ? 'detect' : 'none';
        if (v) { if (verdict && verdict !== v) throw new Error(`${file}:${c.line} contradictory assertions`); verdict = v; }
      } else if (a.path === 'severity' && a.matcher === 'toBe' && !a.not) severity = a.val;
      else if (a.path !== '' && !a.not && verdict === null) verdict = 'detect'; // a property of a non-null result asserted
    }
    const why = [];
    if (!c.input || typeof c.input !== 'object' || typeof c.input.command !== 'string' || Object.keys(c.input).some(k => k !== 'command')) why.push('input is not {command}');
    if (c.config && (c.config === OPAQUE || Object.keys(c.config).some(k => k !== 'enabled' && k !== 'severity') || c.config.enabled !== true)) why.push('custom config');
    if (!verdict) why.push('no verdict');
    if (verdict === 'detect' && severity === 'low') why.push('low severity (below the default minSeverity "medium")');
    if (why.length) { skipped.push({ file, line: c.line, why: why.join(', '), command: c.input && c.input.command }); continue; }
    const command = c.input.command;
    out.push({ file, line: E.lineOf.get(command) ?? c.line, detector: c.detector, verdict, severity, command, describe: c.describe.join(' > '), test: c.test });
  }
  return { cases: out, skipped };
}
