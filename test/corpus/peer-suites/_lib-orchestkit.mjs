// Shared reader for yonatangross/orchestkit's vitest hook tests (src/hooks/src/__tests__/**/*.test.ts).
// Used by orchestkit-dangerous-command-blocker.mjs, orchestkit-compound-command-validator.mjs and
// orchestkit-auto-approve-safe-bash.mjs.
//
// The test file is parsed, never run, and walked with the evaluator of _lib-ts-eval.mjs: describe / it / test /
// it.each / test.each blocks, for-of loops over literal arrays, describe-level `const` arrays and helper arrow
// functions (`const allows = (cmd) => { … }`). String values are evaluated from literals, template literals, `+`
// concatenation, `.toUpperCase()`, `.repeat(n)`, `Array(n).fill(x).join(s)`. A statement that cannot be evaluated and
// holds a hook or input call is left out (logged).
// Every call `HOOK(INPUT(cmd[, overrides]) [, ctx])` is a case; the `expect(...)` assertions made on its result give
// the peer's verdict:
//   continue → false, or permissionDecision → 'deny'              → "deny"
//   permissionDecision → 'ask'                                     → "ask"
//   permissionDecision → 'allow'                                   → "approve"
//   permissionDecision → undefined (toBeUndefined)                 → "none"   (no decision: silent pass-through)
//   permissionDecision not 'deny' / not 'ask'                      → "not-deny" / "not-ask"
//   only continue → true                                           → "continue" (deny is excluded; ask keeps continue)
//   toEqual({continue:true, suppressOutput:true})                  → "none"
// Calls whose INPUT has overrides (e.g. bypassPermissions mode), whose input is a hand-built object, or whose
// command is empty/whitespace are left out (counted in the log written to stderr).
import { execFileSync } from 'node:child_process';
import { ts, tsEvaluator, Unevaluable, OPAQUE } from './_lib-ts-eval.mjs';

export function readCases({ gitDir, commit, file, hookFn, inputFns }) {
  const text = execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${file}`], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const cases = [];           // { command, line, describe, test, verdict }
  const skipped = [];
  const E = tsEvaluator(text, file, {
    specialCall: name => (inputFns.includes(name) ? inputCall : name === hookFn ? hookCall : null),
    // `(input as …).permission_mode = …`: a mutated input is an override, like a second createBashInput argument.
    statement(s, env, ctx) {
      const x = s.expression;
      if (!ts.isBinaryExpression(x) || x.operatorToken.kind !== ts.SyntaxKind.EqualsToken || !ts.isPropertyAccessExpression(x.left)) return false;
      const base = E.evOr(x.left.expression, env, ctx, () => undefined);
      if (base && base.kind === 'input') { base.overrides = true; return true; }
      return false;
    },
    // A statement that could not be evaluated is logged as skipped when it involves the hook or its input.
    guard(node, e) {
      const t = node.getText(E.sf);
      if (t.includes(hookFn + '(') || inputFns.some(f => t.includes(f + '('))) {
        skipped.push({ line: E.lineOfPos(node.getStart(E.sf)), why: 'unevaluable: ' + e.message });
      }
    },
  });
  // INPUT(cmd[, overrides]): the command, and whether anything but the command was set.
  function inputCall(n, env, ctx) {
    const command = E.ev(n.arguments[0], env, ctx);
    if (typeof command !== 'string') throw new Unevaluable('input command not a string');
    return { kind: 'input', command, overrides: n.arguments.length > 1, line: E.lineOfPos(n.arguments[0].getStart(E.sf)) };
  }
  // HOOK(input[, ctx]): one result per call, collected by the test that runs it.
  function hookCall(n, env, ctx) {
    const inp = E.ev(n.arguments[0], env, ctx);
    const res = { kind: 'result', input: inp && inp.kind === 'input' ? inp : null, assertions: [], ctx };
    ctx.results.push(res);
    return res;
  }

  function runTest(title, fn, env, describe, rowArgs) {
    const ctx = { results: [] };
    const e2 = E.child(env);
    if (rowArgs) {
      const ps = fn.parameters;
      const spread = Array.isArray(rowArgs) ? rowArgs : [rowArgs];
      ps.forEach((p, i) => E.bind(p.name, spread[i], e2));
      let k = 0; title = title.replace(/%[sd]/g, () => String(spread[k++]));
    }
    E.runBody(fn.body, e2, ctx);
    for (const r of ctx.results) finish(r, describe, title);
  }

  function finish(r, describe, test) {
    if (!r.input) { skipped.push({ line: null, why: `hand-built input in "${test}"` }); return; }
    const { command, overrides } = r.input;
    if (overrides) { skipped.push({ line: r.input.line, why: `input overrides (e.g. permission mode) in "${test}"`, command }); return; }
    if (command.trim() === '') { skipped.push({ line: r.input.line, why: `empty command in "${test}"` }); return; }
    let verdict = null;
    const set = v => { if (verdict && verdict !== v && !(verdict === 'continue')) { if (!(v === 'continue')) throw new Error(`${file}: mixed verdicts ${verdict}/${v} for ${JSON.stringify(command)}`); return; } if (!verdict || verdict === 'continue') verdict = v; };
    for (const a of r.assertions) {
      if (a.path === 'continue' && a.matcher === 'toBe' && !a.not) set(a.val === false ? 'deny' : 'continue');
      else if (a.path === 'hookSpecificOutput.permissionDecision') {
        if (a.matcher === 'toBeUndefined' && !a.not) set('none');
        else if (a.matcher === 'toBe' && !a.not) set({ deny: 'deny', ask: 'ask', allow: 'approve' }[a.val] || (() => { throw new Error('decision ' + a.val); })());
        else if (a.matcher === 'toBe' && a.not) set('not-' + a.val);
        else throw new Error('unhandled decision assertion');
      } else if (a.path === '' && a.matcher === 'toEqual') {
        const o = a.val;
        if (o.continue === false) set('deny');
        else if (o.hookSpecificOutput && o.hookSpecificOutput !== OPAQUE && o.hookSpecificOutput.permissionDecision) set({ deny: 'deny', ask: 'ask', allow: 'approve' }[o.hookSpecificOutput.permissionDecision]);
        else if (o.continue === true && !('hookSpecificOutput' in o)) set('none');
        else throw new Error('unhandled toEqual');
      }
    }
    if (!verdict) { skipped.push({ line: r.input.line, why: `no verdict assertion in "${test}"`, command }); return; }
    cases.push({ command, line: E.lineOf.get(command) ?? r.input.line, describe: describe.join(' > '), test, verdict });
  }

  function walk(node, env, describe) {
    if (ts.isExpressionStatement(node) && ts.isCallExpression(node.expression)) {
      const call = node.expression;
      const c = call.expression;
      // describe('x', () => {…})
      if (ts.isIdentifier(c) && c.text === 'describe') {
        const title = E.ev(call.arguments[0], env, {});
        const fn = call.arguments[1];
        const e2 = E.child(env);
        for (const s of fn.body.statements) walk(s, e2, [...describe, title]);
        return;
      }
      // it('x', fn) / test('x', fn)
      if (ts.isIdentifier(c) && (c.text === 'it' || c.text === 'test')) {
        runTest(E.ev(call.arguments[0], env, {}), call.arguments[1], env, describe, null);
        return;
      }
      // it.each(table)('x', fn)
      if (ts.isCallExpression(c) && ts.isPropertyAccessExpression(c.expression) && c.expression.name.text === 'each'
        && ts.isIdentifier(c.expression.expression) && ['it', 'test'].includes(c.expression.expression.text)) {
        const rows = E.ev(c.arguments[0], env, {});
        const title = E.ev(call.arguments[0], env, {});
        for (const row of rows) runTest(title, call.arguments[1], env, describe, row);
        return;
      }
      if (ts.isPropertyAccessExpression(c) && ['skip', 'todo'].includes(c.name.text)) { skipped.push({ line: E.lineOfPos(node.getStart(E.sf)), why: c.name.text }); return; }
      return; // beforeEach, vi.mock, …
    }
    if (ts.isVariableStatement(node) || ts.isFunctionDeclaration(node)) E.runStmt(node, env, { results: [] });
  }
  const top = E.child(null);
  for (const s of E.sf.statements) {
    if (ts.isFunctionDeclaration(s) && s.name && (inputFns.includes(s.name.text))) continue;
    walk(s, top, []);
  }
  return { cases, skipped };
}

// Turn cases into vectors: de-duplicate (first occurrence), map the verdict, apply core tables.
export function buildVectors({ repo, file, suite, cases, verdictMap, coreBlock, coreAllow, dropWeak = new Set(), family }) {
  const out = [], seen = new Map(), used = new Set(), dropped = [];
  const CORE = new Map();
  for (const [want, table] of [['block', coreBlock], ['allow', coreAllow]]) {
    for (const [fam, list] of Object.entries(table)) for (const c of list) {
      if (CORE.has(c)) throw new Error('duplicate table key ' + JSON.stringify(c));
      CORE.set(c, { want, family: fam });
    }
  }
  for (const k of dropWeak) if (!cases.some(c => c.command === k)) throw new Error('drop entry not in suite: ' + JSON.stringify(k));
  for (const c of cases) {
    const expected = verdictMap[c.verdict];
    if (!expected) throw new Error(`unmapped verdict ${c.verdict} for ${JSON.stringify(c.command)}`);
    if (dropWeak.has(c.command)) { used.add('drop:' + c.command); dropped.push(c); continue; }
    if (seen.has(c.command)) {
      if (seen.get(c.command) !== expected) throw new Error(`conflicting labels for ${JSON.stringify(c.command)}`);
      continue;
    }
    seen.set(c.command, expected);
    let tag = 'policy', fam;
    const k = CORE.get(c.command);
    if (k) {
      if (k.want !== expected) throw new Error(`core table disagrees with label for ${JSON.stringify(c.command)}`);
      used.add(c.command); tag = 'core'; fam = k.family;
    } else fam = family(c.command, expected);
    out.push({ source: `${repo} ${file}:${c.line}`, category: `${suite}:${c.verdict}:${c.describe}`,
      expected, tool: 'Bash', input: { command: c.command }, tag, family: fam });
  }
  for (const k of CORE.keys()) if (!used.has(k)) throw new Error('table entry not in suite: ' + JSON.stringify(k));
  return { out, dropped };
}

// Family of a policy row, from the command text (core rows take the family from their table).
export function orchestkitFamily(cmd) {
  if (/(curl|wget|ssh)\b.*\|/.test(cmd) || /<\(curl|\bcurl\b|\bwget\b/.test(cmd)) return 'network';
  if (/^\s*(git|gh)\b|&&\s*git\b/.test(cmd)) return 'git';
  if (/\b(terraform|TERRAFORM|pulumi|cdk)\b/.test(cmd)) return 'cloud';
  if (/\b(docker|docker-compose)\b/.test(cmd)) return 'container';
  if (/\b(psql|mysql)\b/.test(cmd)) return 'database';
  if (/\bsudo\b|\bchmod\b/.test(cmd)) return 'privilege';
  if (/\b(pkill|killall|kill)\b/.test(cmd)) return 'system';
  if (/\brm\b|\bmv\b|\bdd\b|-delete\b/.test(cmd)) return 'destructive';
  if (/\/etc\/passwd|\/etc\/shadow/.test(cmd) || /^\s*(env|printenv)(\s+[A-Z_]+)?\s*$/.test(cmd)) return 'secrets';
  return 'other';
}
