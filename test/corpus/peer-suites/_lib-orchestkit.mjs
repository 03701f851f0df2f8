// Shared reader for yonatangross/orchestkit's vitest hook tests (src/hooks/src/__tests__/**/*.test.ts).
// Used by orchestkit-dangerous-command-blocker.mjs, orchestkit-compound-command-validator.mjs and
// orchestkit-auto-approve-safe-bash.mjs.
//
// The test file is parsed with the TypeScript compiler's parser (only parsed, never run) and a small interpreter walks
// describe / it / test / it.each / test.each blocks, for-of loops over literal arrays, describe-level `const` arrays and
// helper arrow functions (`const allows = (cmd) => { … }`). String values are evaluated from literals, template
// literals, `+` concatenation, `.toUpperCase()`, `.repeat(n)`, `Array(n).fill(x).join(s)`. Anything else that feeds a
// hook call stops the script.
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
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ts = require('typescript');

class Unevaluable extends Error {}
const OPAQUE = { opaque: true };

export function readCases({ gitDir, commit, file, hookFn, inputFns }) {
  const text = execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${file}`], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lineOfPos = p => sf.getLineAndCharacterOfPosition(p).line + 1;
  const lineOf = new Map();   // string value -> first line that produced it
  const cases = [];           // { command, line, describe, test, verdict, assertions }
  const skipped = [];
  const noteStr = (s, node) => { if (typeof s === 'string' && !lineOf.has(s)) lineOf.set(s, lineOfPos(node.getStart(sf))); return s; };

  function lookup(env, name) {
    for (let e = env; e; e = e.parent) if (e.vars.has(name)) return e.vars.get(name);
    throw new Unevaluable('unbound ' + name);
  }
  const child = parent => ({ parent, vars: new Map() });

  function ev(n, env, ctx) {
    switch (n.kind) {
      case ts.SyntaxKind.StringLiteral: case ts.SyntaxKind.NoSubstitutionTemplateLiteral: return noteStr(n.text, n);
      case ts.SyntaxKind.NumericLiteral: return Number(n.text);
      case ts.SyntaxKind.TrueKeyword: return true;
      case ts.SyntaxKind.FalseKeyword: return false;
      case ts.SyntaxKind.TemplateExpression: {
        let s = n.head.text;
        for (const sp of n.templateSpans) { const v = ev(sp.expression, env, ctx); if (typeof v !== 'string' && typeof v !== 'number') throw new Unevaluable('template part'); s += v + sp.literal.text; }
        return noteStr(s, n);
      }
      case ts.SyntaxKind.ParenthesizedExpression: case ts.SyntaxKind.AsExpression: case ts.SyntaxKind.TypeAssertionExpression:
      case ts.SyntaxKind.NonNullExpression: case ts.SyntaxKind.SatisfiesExpression:
        return ev(n.expression, env, ctx);
      case ts.SyntaxKind.BinaryExpression: {
        if (n.operatorToken.kind === ts.SyntaxKind.PlusToken) {
          const a = ev(n.left, env, ctx), b = ev(n.right, env, ctx);
          if (typeof a !== 'string' || typeof b !== 'string') throw new Unevaluable('+ on non-strings');
          return noteStr(a + b, n);
        }
        if (n.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken) return ev(n.left, env, ctx);
        throw new Unevaluable('binary ' + n.operatorToken.getText(sf));
      }
      case ts.SyntaxKind.ArrayLiteralExpression: return n.elements.map(e => ev(e, env, ctx));
      case ts.SyntaxKind.ObjectLiteralExpression: {
        const o = {};
        for (const p of n.properties) {
          if (ts.isPropertyAssignment(p)) { try { o[p.name.getText(sf)] = ev(p.initializer, env, ctx); } catch (e) { if (!(e instanceof Unevaluable)) throw e; o[p.name.getText(sf)] = OPAQUE; } }
          else if (ts.isShorthandPropertyAssignment(p)) { try { o[p.name.text] = lookup(env, p.name.text); } catch { o[p.name.text] = OPAQUE; } }
          else o['…'] = OPAQUE;
        }
        return o;
      }
      case ts.SyntaxKind.Identifier: {
        if (n.text === 'undefined') return undefined;
        return lookup(env, n.text);
      }
      case ts.SyntaxKind.PropertyAccessExpression: {
        const base = ev(n.expression, env, ctx);
        const name = n.name.text;
        if (base && base.kind === 'result') return { kind: 'ref', res: base, path: [name] };
        if (base && base.kind === 'ref') return { kind: 'ref', res: base.res, path: [...base.path, name] };
        if (typeof base === 'string' || Array.isArray(base)) return { kind: 'method', base, name };
        if (base && typeof base === 'object' && name in base) return base[name];
        throw new Unevaluable('property ' + name);
      }
      case ts.SyntaxKind.CallExpression: return evCall(n, env, ctx);
      default: throw new Unevaluable('node ' + ts.SyntaxKind[n.kind]);
    }
  }

  function evCall(n, env, ctx) {
    const callee = n.expression;
    if (ts.isIdentifier(callee)) {
      const name = callee.text;
      if (inputFns.includes(name)) {
        const command = ev(n.arguments[0], env, ctx);
        if (typeof command !== 'string') throw new Unevaluable('input command not a string');
        return { kind: 'input', command, overrides: n.arguments.length > 1, line: lineOfPos(n.arguments[0].getStart(sf)) };
      }
      if (name === hookFn) {
        const inp = ev(n.arguments[0], env, ctx);
        const res = { kind: 'result', input: inp && inp.kind === 'input' ? inp : null, assertions: [], ctx };
        ctx.results.push(res);
        return res;
      }
      if (name === 'Array' && n.arguments.length === 1) { const k = ev(n.arguments[0], env, ctx); return new Array(k).fill(undefined); }
      if (name === 'expect') throw new Unevaluable('bare expect');
      let fn;
      try { fn = lookup(env, name); } catch { throw new Unevaluable('call ' + name); }
      if (fn && fn.kind === 'helper') {
        const e2 = child(fn.env);
        fn.params.forEach((p, i) => e2.vars.set(p, n.arguments[i] ? ev(n.arguments[i], env, ctx) : undefined));
        runBody(fn.body, e2, ctx);
        return undefined;
      }
      throw new Unevaluable('call ' + name);
    }
    if (ts.isPropertyAccessExpression(callee)) {
      const m = ev(callee, env, ctx);
      if (m && m.kind === 'method') {
        const args = n.arguments.map(a => ev(a, env, ctx));
        const { base, name } = m;
        if (typeof base === 'string') {
          if (name === 'toUpperCase') return noteStr(base.toUpperCase(), n);
          if (name === 'toLowerCase') return noteStr(base.toLowerCase(), n);
          if (name === 'repeat') return noteStr(base.repeat(args[0]), n);
          if (name === 'trim') return noteStr(base.trim(), n);
        } else {
          if (name === 'fill') return base.map(() => args[0]);
          if (name === 'join') return noteStr(base.join(args[0] ?? ','), n);
        }
        throw new Unevaluable('method ' + name);
      }
    }
    throw new Unevaluable('call ' + callee.getText(sf).slice(0, 40));
  }

  // expect(A[, msg])[.not].matcher(V)
  function tryExpect(expr, env, ctx) {
    if (!ts.isCallExpression(expr) || !ts.isPropertyAccessExpression(expr.expression)) return false;
    const matcher = expr.expression.name.text;
    let obj = expr.expression.expression, not = false;
    if (ts.isPropertyAccessExpression(obj) && obj.name.text === 'not') { not = true; obj = obj.expression; }
    if (!ts.isCallExpression(obj) || !ts.isIdentifier(obj.expression) || obj.expression.text !== 'expect') return false;
    const a0 = obj.arguments[0];
    if (!a0 || ts.isArrowFunction(a0)) return true;
    let target;
    try { target = ev(a0, env, ctx); } catch (e) { if (e instanceof Unevaluable) return true; throw e; }
    let val;
    try { val = expr.arguments.length ? ev(expr.arguments[0], env, ctx) : undefined; } catch (e) { if (!(e instanceof Unevaluable)) throw e; val = OPAQUE; }
    if (target && target.kind === 'result') target = { kind: 'ref', res: target, path: [] };
    if (target && target.kind === 'ref') target.res.assertions.push({ path: target.path.join('.'), not, matcher, val });
    return true;
  }

  function runStmt(s, env, ctx) {
    if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) {
        if (!ts.isIdentifier(d.name)) continue;
        const init = d.initializer;
        if (!init) continue;
        if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) {
          env.vars.set(d.name.text, { kind: 'helper', params: init.parameters.map(p => p.name.getText(sf)), body: init.body, env });
          continue;
        }
        try { env.vars.set(d.name.text, ev(init, env, ctx)); }
        catch (e) { if (!(e instanceof Unevaluable)) throw e; env.vars.set(d.name.text, OPAQUE); guard(init, e); }
      }
    } else if (ts.isForOfStatement(s)) {
      let arr;
      try { arr = ev(s.expression, env, ctx); } catch (e) { if (!(e instanceof Unevaluable)) throw e; guard(s, e); return; }
      if (!Array.isArray(arr)) throw new Error(`${file}:${lineOfPos(s.getStart(sf))} for-of over non-array`);
      const decl = s.initializer.declarations[0];
      for (const v of arr) {
        const e2 = child(env);
        bind(decl.name, v, e2);
        runBody(s.statement, e2, ctx);
      }
    } else if (ts.isExpressionStatement(s)) {
      if (tryExpect(s.expression, env, ctx)) return;
      // `(input as …).permission_mode = …`: a mutated input is an override, like a second createBashInput argument.
      const x = s.expression;
      if (ts.isBinaryExpression(x) && x.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(x.left)) {
        let base; try { base = ev(x.left.expression, env, ctx); } catch (e) { if (!(e instanceof Unevaluable)) throw e; }
        if (base && base.kind === 'input') { base.overrides = true; return; }
      }
      try { ev(s.expression, env, ctx); } catch (e) { if (!(e instanceof Unevaluable)) throw e; guard(s, e); }
    } else if (ts.isBlock(s)) runBody(s, child(env), ctx);
    else guard(s, new Unevaluable(ts.SyntaxKind[s.kind]));
  }
  // A statement that could not be evaluated is fatal only when it involves the hook.
  function guard(node, e) {
    const t = node.getText(sf);
    if (t.includes(hookFn + '(') || inputFns.some(f => t.includes(f + '('))) {
      skipped.push({ line: lineOfPos(node.getStart(sf)), why: 'unevaluable: ' + e.message });
    }
  }
  function bind(nameNode, v, env) {
    if (ts.isIdentifier(nameNode)) env.vars.set(nameNode.text, v);
    else if (ts.isArrayBindingPattern(nameNode)) nameNode.elements.forEach((el, i) => { if (ts.isBindingElement(el)) bind(el.name, v[i], env); });
    else throw new Error('binding pattern');
  }
  function runBody(body, env, ctx) {
    if (ts.isBlock(body)) for (const s of body.statements) runStmt(s, env, ctx);
    else { if (!tryExpect(body, env, ctx)) ev(body, env, ctx); }
  }

  function runTest(title, fn, env, describe, rowArgs) {
    const ctx = { results: [] };
    const e2 = child(env);
    if (rowArgs) {
      const ps = fn.parameters;
      const spread = Array.isArray(rowArgs) ? rowArgs : [rowArgs];
      ps.forEach((p, i) => bind(p.name, spread[i], e2));
      let k = 0; title = title.replace(/%[sd]/g, () => String(spread[k++]));
    }
    runBody(fn.body, e2, ctx);
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
    cases.push({ command, line: lineOf.get(command) ?? r.input.line, describe: describe.join(' > '), test, verdict });
  }

  function walk(node, env, describe) {
    if (ts.isExpressionStatement(node) && ts.isCallExpression(node.expression)) {
      const call = node.expression;
      const c = call.expression;
      // describe('x', () => {…})
      if (ts.isIdentifier(c) && c.text === 'describe') {
        const title = ev(call.arguments[0], env, {});
        const fn = call.arguments[1];
        const e2 = child(env);
        for (const s of fn.body.statements) walk(s, e2, [...describe, title]);
        return;
      }
      // it('x', fn) / test('x', fn)
      if (ts.isIdentifier(c) && (c.text === 'it' || c.text === 'test')) {
        runTest(ev(call.arguments[0], env, {}), call.arguments[1], env, describe, null);
        return;
      }
      // it.each(table)('x', fn)
      if (ts.isCallExpression(c) && ts.isPropertyAccessExpression(c.expression) && c.expression.name.text === 'each'
        && ts.isIdentifier(c.expression.expression) && ['it', 'test'].includes(c.expression.expression.text)) {
        const rows = ev(c.arguments[0], env, {});
        const title = ev(call.arguments[0], env, {});
        for (const row of rows) runTest(title, call.arguments[1], env, describe, row);
        return;
      }
      if (ts.isPropertyAccessExpression(c) && ['skip', 'todo'].includes(c.name.text)) { skipped.push({ line: lineOfPos(node.getStart(sf)), why: c.name.text }); return; }
      return; // beforeEach, vi.mock, …
    }
    if (ts.isVariableStatement(node)) { runStmt(node, env, { results: [] }); return; }
    if (ts.isFunctionDeclaration(node) && node.name && node.body) {
      env.vars.set(node.name.text, { kind: 'helper', params: node.parameters.map(p => p.name.getText(sf)), body: node.body, env });
    }
  }
  const top = child(null);
  for (const s of sf.statements) {
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
