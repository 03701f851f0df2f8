/**
 * Codex's "code mode": the model calls one `exec` tool with a JavaScript cell, and the cell calls the
 * agent's tools (`await tools.exec_command({cmd: …})`, `tools.apply_patch(patch)`, MCP tools as
 * `tools.<server>__<tool>`). The cell is never run here: its tool calls are read when their argument is a
 * literal (an object, a string, or a constant the cell declared as one, spread included); an argument the
 * cell computes (`patch.replace(…)`, a loop variable) cannot be read.
 */

/** One tool call in a cell: its argument, or unreadable when the cell computes it. */
export interface CellCall {
  tool: string;
  argument?: unknown;
  unreadable?: true;
}

class Unreadable extends Error {}

const IDENTIFIER = /[A-Za-z_$][\w$]*/y;
const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
/** After these a `/` starts a regular expression, not a division. */
const BEFORE_REGEX = new Set(['', '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '\n']);

class Scanner {
  i = 0;
  constructor(readonly code: string) {}

  get done(): boolean {
    return this.i >= this.code.length;
  }

  skipSpace(): void {
    const c = this.code;
    while (this.i < c.length) {
      if (/\s/.test(c[this.i]!)) this.i++;
      else if (c.startsWith('//', this.i)) this.i = c.includes('\n', this.i) ? c.indexOf('\n', this.i) : c.length;
      else if (c.startsWith('/*', this.i)) this.i = c.includes('*/', this.i + 2) ? c.indexOf('*/', this.i + 2) + 2 : c.length;
      else return;
    }
  }

  peek(): string {
    this.skipSpace();
    return this.code[this.i] ?? '';
  }

  eat(token: string): boolean {
    if (this.peek() === token[0] && this.code.startsWith(token, this.i)) {
      this.i += token.length;
      return true;
    }
    return false;
  }

  identifier(): string | undefined {
    this.skipSpace();
    IDENTIFIER.lastIndex = this.i;
    const match = IDENTIFIER.exec(this.code);
    if (!match) return undefined;
    this.i += match[0].length;
    return match[0];
  }

  /** A string or template literal starting at the cursor (the cursor is on its quote). */
  string(): string {
    const c = this.code;
    const quote = c[this.i]!;
    let out = '';
    this.i++;
    while (this.i < c.length && c[this.i] !== quote) {
      const ch = c[this.i]!;
      if (quote === '`' && ch === '$' && c[this.i + 1] === '{') throw new Unreadable('a template with expressions');
      if (ch !== '\\') {
        out += ch;
        this.i++;
        continue;
      }
      const next = c[this.i + 1] ?? '';
      this.i += 2;
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', 0: '\0', '\n': '' };
      if (next in simple) out += simple[next];
      else if (next === 'u' && c[this.i] === '{') {
        const end = c.indexOf('}', this.i);
        out += String.fromCodePoint(parseInt(c.slice(this.i + 1, end), 16));
        this.i = end + 1;
      } else if (next === 'u' || next === 'x') {
        const length = next === 'u' ? 4 : 2;
        out += String.fromCharCode(parseInt(c.slice(this.i, this.i + length), 16));
        this.i += length;
      } else out += next;
    }
    if (this.i >= c.length) throw new Unreadable('an unterminated string');
    this.i++;
    return out;
  }

  /** Moves past a string, comment or regular expression at the cursor without reading it; false when there is none. */
  skipOpaque(previous: string): boolean {
    const c = this.code;
    const ch = c[this.i];
    if (ch === '"' || ch === "'" || ch === '`') {
      const quote = ch;
      this.i++;
      while (this.i < c.length && c[this.i] !== quote) this.i += c[this.i] === '\\' ? 2 : 1;
      this.i++;
      return true;
    }
    if (c.startsWith('//', this.i) || c.startsWith('/*', this.i)) {
      this.skipSpace();
      return true;
    }
    if (ch === '/' && BEFORE_REGEX.has(previous)) {
      let inClass = false;
      this.i++;
      while (this.i < c.length && (c[this.i] !== '/' || inClass) && c[this.i] !== '\n') {
        if (c[this.i] === '\\') this.i++;
        else if (c[this.i] === '[') inClass = true;
        else if (c[this.i] === ']') inClass = false;
        this.i++;
      }
      this.i++;
      return true;
    }
    return false;
  }
}

/** A literal expression at the cursor, with the cell's constants; Unreadable when the cell computes it. */
function literal(s: Scanner, env: Map<string, unknown>): unknown {
  const ch = s.peek();
  if (ch === '"' || ch === "'" || ch === '`') return s.string();
  if (ch === '{') return object(s, env);
  if (ch === '[') {
    s.eat('[');
    const items: unknown[] = [];
    while (!s.eat(']')) {
      if (s.eat('...')) {
        const spread = literal(s, env);
        if (!Array.isArray(spread)) throw new Unreadable('a spread of a non-array');
        items.push(...(spread as unknown[]));
      } else items.push(literal(s, env));
      if (!s.eat(',') && s.peek() !== ']') throw new Unreadable('an expression in an array');
    }
    return items;
  }
  NUMBER.lastIndex = s.i;
  const number = NUMBER.exec(s.code);
  if (number) {
    s.i += number[0].length;
    return Number(number[0]);
  }
  const name = s.identifier();
  if (name === undefined) throw new Unreadable('an expression');
  if (name === 'true' || name === 'false') return name === 'true';
  if (name === 'null') return null;
  if (!env.has(name)) throw new Unreadable(`a value computed in the cell (${name})`);
  return env.get(name);
}

function object(s: Scanner, env: Map<string, unknown>): Record<string, unknown> {
  s.eat('{');
  const out: Record<string, unknown> = {};
  while (!s.eat('}')) {
    if (s.eat('...')) {
      const spread = literal(s, env);
      if (!spread || typeof spread !== 'object' || Array.isArray(spread)) throw new Unreadable('a spread of a non-object');
      Object.assign(out, spread);
    } else {
      const ch = s.peek();
      const key = ch === '"' || ch === "'" ? s.string() : (s.identifier() ?? String(literal(s, env)));
      if (s.eat(':')) out[key] = literal(s, env);
      else if (env.has(key)) out[key] = env.get(key);
      else throw new Unreadable(`a value computed in the cell (${key})`);
    }
    if (!s.eat(',') && s.peek() !== '}') throw new Unreadable('an expression in an object');
  }
  return out;
}

/** The tool calls of a code-mode cell, in the order they appear in its code. */
export function cellCalls(code: string): CellCall[] {
  const s = new Scanner(code);
  const env = new Map<string, unknown>();
  const calls: CellCall[] = [];
  let previous = '';
  while (!s.done) {
    const ch = s.code[s.i]!;
    if (s.skipOpaque(previous)) {
      previous = 'x';
      continue;
    }
    if (!/[A-Za-z_$]/.test(ch)) {
      if (!/\s/.test(ch) || ch === '\n') previous = ch;
      s.i++;
      continue;
    }
    const word = s.identifier()!;
    previous = 'x';
    if (word === 'const' || word === 'let' || word === 'var') {
      const name = s.identifier();
      if (name && s.eat('=') && !s.eat('=')) {
        const start = s.i;
        try {
          env.set(name, literal(s, env));
          const end = s.peek();
          // `const x = "a".replace(…)` is computed after all.
          if (end && end !== ';' && end !== ',' && end !== '\n' && !/^[A-Za-z_$]/.test(end)) {
            env.delete(name);
            s.i = start;
          }
        } catch {
          s.i = start;
        }
        // What follows `=` may be a regular expression.
        previous = '=';
      }
      continue;
    }
    if (word !== 'tools' || !s.eat('.')) continue;
    const tool = s.identifier();
    if (!tool || !s.eat('(')) continue;
    const start = s.i;
    try {
      const argument = s.peek() === ')' ? {} : literal(s, env);
      if (s.peek() !== ')') throw new Unreadable('more than one argument');
      calls.push({ tool, argument });
    } catch {
      s.i = start;
      calls.push({ tool, unreadable: true });
    }
  }
  return calls;
}
