// A small evaluator of TypeScript test files (vitest / jest), shared by the readers that take their cases from a
// peer's test code: _lib-noexec.mjs and _lib-orchestkit.mjs.
//
// The file is parsed with the TypeScript compiler's parser (only parsed, never run). Values are evaluated from
// string / number / boolean literals, template literals, `+` on strings, `a ?? b` (taken as `a`), object and array
// literals, bound names, property access, `.toUpperCase()` / `.toLowerCase()` / `.repeat(n)` / `.trim()` on strings,
// `Array(n)`, `.fill(x)` / `.join(s)` on arrays, and calls of helper functions (`const f = (x) => …`,
// `function f(x) { … }`): an expression body gives its value, a block body is run for the assertions it makes.
// Statements: `const` / `let` bindings (identifiers and array patterns), assignments to bound names, `for … of` over
// evaluated arrays, blocks and `expect(A)[.not].matcher(V)` assertions. Anything else is Unevaluable: a binding gets
// OPAQUE and the statement goes to the reader's `guard` hook, which decides whether that matters.
//
// The reader supplies the calls it treats specially (the code under test, its input builders): `specialCall(name)`
// returns a handler `(callNode, env, ctx) => value` or nothing. A handler that returns an object
// `{ kind: 'result', assertions: [] }` gets every later `expect(thatValue[.a.b])…` recorded in `assertions` as
// `{ path: 'a.b', not, matcher, val }`. `statement(stmt, env, ctx)` sees each expression statement that is not an
// assertion first and returns true when it handled it (describe / it blocks, say). `guard(node, error)` is told of
// each binding or statement that could not be evaluated. `ctx` is passed through untouched.
// tsEvaluator(text, file, hooks) returns the parsed file (`sf`), `lineOfPos`, `lineOf` (string value → first line
// that produced it), `child(env)` (a new scope; `child(null)` is the top one), `ev`, `evOr(node, env, ctx, fallback)`,
// `bind`, `runStmt` and `runBody` (a block, the file or an arrow function's body).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
export const ts = require('typescript');

export class Unevaluable extends Error {}
export const OPAQUE = { opaque: true };

export function tsEvaluator(text, file, { specialCall = () => null, statement = () => false, guard = () => {} } = {}) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lineOfPos = p => sf.getLineAndCharacterOfPosition(p).line + 1;
  const lineOf = new Map();   // string value -> first line that produced it
  const note = (s, node) => { if (typeof s === 'string' && !lineOf.has(s)) lineOf.set(s, lineOfPos(node.getStart(sf))); return s; };
  const child = parent => ({ parent, vars: new Map() });
  function lookup(env, name) {
    for (let e = env; e; e = e.parent) if (e.vars.has(name)) return e.vars.get(name);
    throw new Unevaluable('unbound ' + name);
  }
  const helper = (fn, env) => ({ kind: 'helper', params: fn.parameters.map(p => p.name.getText(sf)), body: fn.body, env });
  const evOr = (n, env, ctx, fallback) => { try { return ev(n, env, ctx); } catch (e) { if (!(e instanceof Unevaluable)) throw e; return fallback(e); } };

  function ev(n, env, ctx) {
    switch (n.kind) {
      case ts.SyntaxKind.StringLiteral: case ts.SyntaxKind.NoSubstitutionTemplateLiteral: return note(n.text, n);
      case ts.SyntaxKind.NumericLiteral: return Number(n.text);
      case ts.SyntaxKind.TrueKeyword: return true;
      case ts.SyntaxKind.FalseKeyword: return false;
      case ts.SyntaxKind.TemplateExpression: {
        let s = n.head.text;
        for (const sp of n.templateSpans) { const v = ev(sp.expression, env, ctx); if (typeof v !== 'string' && typeof v !== 'number') throw new Unevaluable('template part'); s += v + sp.literal.text; }
        return note(s, n);
      }
      case ts.SyntaxKind.ParenthesizedExpression: case ts.SyntaxKind.AsExpression: case ts.SyntaxKind.NonNullExpression:
      case ts.SyntaxKind.AwaitExpression: case ts.SyntaxKind.SatisfiesExpression: case ts.SyntaxKind.TypeAssertionExpression:
        return ev(n.expression, env, ctx);
      case ts.SyntaxKind.BinaryExpression: {
        if (n.operatorToken.kind === ts.SyntaxKind.PlusToken) {
          const a = ev(n.left, env, ctx), b = ev(n.right, env, ctx);
          if (typeof a !== 'string' || typeof b !== 'string') throw new Unevaluable('+ on non-strings');
          return note(a + b, n);
        }
        if (n.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken) return ev(n.left, env, ctx);
        throw new Unevaluable('binary ' + n.operatorToken.getText(sf));
      }
      case ts.SyntaxKind.ArrayLiteralExpression: return n.elements.map(e => ev(e, env, ctx));
      case ts.SyntaxKind.ObjectLiteralExpression: {
        const o = {};
        for (const p of n.properties) {
          if (ts.isPropertyAssignment(p)) o[p.name.getText(sf)] = evOr(p.initializer, env, ctx, () => OPAQUE);
          else if (ts.isShorthandPropertyAssignment(p)) { try { o[p.name.text] = lookup(env, p.name.text); } catch { o[p.name.text] = OPAQUE; } }
          else o['…'] = OPAQUE;
        }
        return o;
      }
      case ts.SyntaxKind.Identifier: if (n.text === 'undefined') return undefined; return lookup(env, n.text);
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
      const special = specialCall(name);
      if (special) return special(n, env, ctx);
      if (name === 'Array' && n.arguments.length === 1) return new Array(ev(n.arguments[0], env, ctx)).fill(undefined);
      if (name === 'expect') throw new Unevaluable('bare expect');
      let fn;
      try { fn = lookup(env, name); } catch { throw new Unevaluable('call ' + name); }
      if (fn && fn.kind === 'helper') {
        const e2 = child(fn.env);
        fn.params.forEach((p, i) => e2.vars.set(p, n.arguments[i] ? ev(n.arguments[i], env, ctx) : undefined));
        if (ts.isBlock(fn.body)) { runBody(fn.body, e2, ctx); return undefined; }
        return tryExpect(fn.body, e2, ctx) ? undefined : ev(fn.body, e2, ctx);
      }
      throw new Unevaluable('call ' + name);
    }
    if (ts.isPropertyAccessExpression(callee)) {
      const m = ev(callee, env, ctx);
      if (m && m.kind === 'method') {
        const args = n.arguments.map(a => ev(a, env, ctx));
        const { base, name } = m;
        if (typeof base === 'string') {
          if (name === 'toUpperCase') return note(base.toUpperCase(), n);
          if (name === 'toLowerCase') return note(base.toLowerCase(), n);
          if (name === 'repeat') return note(base.repeat(args[0]), n);
          if (name === 'trim') return note(base.trim(), n);
        } else {
          if (name === 'fill') return base.map(() => args[0]);
          if (name === 'join') return note(base.join(args[0] ?? ','), n);
        }
        throw new Unevaluable('method ' + name);
      }
    }
    throw new Unevaluable('call ' + callee.getText(sf).slice(0, 40));
  }

  // expect(A[, msg])[.not].matcher(V): true when `expr` is an assertion (recorded when A is a result or part of one).
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
    const val = expr.arguments.length ? evOr(expr.arguments[0], env, ctx, () => OPAQUE) : undefined;
    if (target && target.kind === 'result') target = { kind: 'ref', res: target, path: [] };
    if (target && target.kind === 'ref') target.res.assertions.push({ path: target.path.join('.'), not, matcher, val });
    return true;
  }

  function bind(nameNode, v, env) {
    if (ts.isIdentifier(nameNode)) env.vars.set(nameNode.text, v);
    else if (ts.isArrayBindingPattern(nameNode)) nameNode.elements.forEach((el, i) => { if (ts.isBindingElement(el)) bind(el.name, v[i], env); });
    else throw new Error(`${file}:${lineOfPos(nameNode.getStart(sf))} destructuring binding`);
  }

  function runStmt(s, env, ctx) {
    if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) {
        const init = d.initializer;
        if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) bind(d.name, helper(init, env), env);
        else bind(d.name, init ? evOr(init, env, ctx, e => { guard(init, e); return OPAQUE; }) : undefined, env);
      }
    } else if (ts.isFunctionDeclaration(s) && s.name && s.body) env.vars.set(s.name.text, helper(s, env));
    else if (ts.isForOfStatement(s)) {
      let arr;
      try { arr = ev(s.expression, env, ctx); } catch (e) { if (!(e instanceof Unevaluable)) throw e; guard(s, e); return; }
      if (!Array.isArray(arr)) throw new Error(`${file}:${lineOfPos(s.getStart(sf))} for-of over non-array`);
      const decl = s.initializer.declarations[0];
      for (const v of arr) { const e2 = child(env); bind(decl.name, v, e2); runBody(s.statement, e2, ctx); }
    } else if (ts.isExpressionStatement(s)) {
      const x = s.expression;
      if (tryExpect(x, env, ctx) || statement(s, env, ctx)) return;
      if (ts.isBinaryExpression(x) && x.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(x.left)) {
        const v = evOr(x.right, env, ctx, e => { guard(x.right, e); return OPAQUE; });
        for (let e = env; e; e = e.parent) if (e.vars.has(x.left.text)) { e.vars.set(x.left.text, v); return; }
        throw new Error(`${file}:${lineOfPos(s.getStart(sf))} assignment to unbound ${x.left.text}`);
      }
      evOr(x, env, ctx, e => guard(s, e));
    } else if (ts.isBlock(s)) runBody(s, child(env), ctx);
    else if (ts.isImportDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s)) return;
    else guard(s, new Unevaluable(ts.SyntaxKind[s.kind]));
  }

  // A block or the file runs statement by statement; an arrow function's expression body is an assertion or a value.
  function runBody(b, env, ctx) {
    if (ts.isBlock(b) || ts.isSourceFile(b)) for (const s of b.statements) runStmt(s, env, ctx);
    else if (ts.isExpression(b)) { if (!tryExpect(b, env, ctx)) ev(b, env, ctx); }
    else runStmt(b, env, ctx);
  }

  return { sf, lineOfPos, lineOf, child, ev, evOr, bind, runStmt, runBody };
}
