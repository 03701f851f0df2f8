import { forEachChild, parse, type Assignment, type CommandNode, type Command, type ParsedScript, type PipelineNode, type AndOr, type Redirection, type Statement, type SyntaxNode, type Word, type WordPart, type DoubleQuotedChild, type ParameterExpansionPart, type Redirected } from 'unbash';
import { ownEntry } from '../own-entry.js';

/** A word of a simple command: its value with quotes removed and known variables expanded. */
export interface ShellWordValue {
  value: string;
  /** Holds an expansion or substitution whose value is only known when the command runs. */
  dynamic: boolean;
}

export interface Redirect {
  operator: string;
  target: string;
}

/** A simple command as written, before wrappers (sudo, env, xargs …) are looked through. */
export interface WrittenCommand {
  words: ShellWordValue[];
  /** Assignments written before the command (`TMPDIR=/x rm …`). */
  assignments: Record<string, string>;
  redirects: Redirect[];
  /** Text fed to its standard input by a here-document, a here-string or a pipe from echo/printf/cat. */
  input?: string;
  pipedFrom: boolean;
  background: boolean;
  /** Inside `$(…)`, backticks or `<(…)`. */
  nested: boolean;
  /** The directory an earlier `cd` of the line moved to: absolute, `~…`, or relative to the session's. */
  cwd?: string;
}

export interface WalkedShell {
  commands: WrittenCommand[];
  /** What the parser could not read (a syntax error), or undefined. */
  syntaxError?: string;
}

/** Variables whose value Warden knows without running anything. */
const KNOWN_VARIABLES: Record<string, string> = { HOME: '~', TMPDIR: '/tmp', TMP: '/tmp', TEMP: '/tmp' };

/** Builtins whose `NAME=value` arguments set variables of the shell instead of being passed on. */
const DECLARATIONS: ReadonlySet<string> = new Set(['export', 'local', 'declare', 'typeset', 'readonly']);

/** How often a line is read on after a syntax error the parser does not recover from by itself. */
const MAX_RESUMPTIONS = 8;

interface Scope {
  nested: boolean;
  cwd: string | undefined;
  vars: Record<string, string>;
}

interface Pipe {
  from: boolean;
  input?: string;
}

const NO_PIPE: Pipe = { from: false };
const PIPED: Pipe = { from: true };

const STATIC_WORD = (value: string): ShellWordValue => ({ value, dynamic: false });

class Walker {
  readonly commands: WrittenCommand[] = [];
  private readonly later: WrittenCommand[][] = [];
  error: string | undefined;

  /** The text the current parse read: error positions index it. */
  source = '';

  /** Adds the commands of statements in order to `out`; the pipe feeds the first one only. */
  statements(out: WrittenCommand[], list: readonly Statement[], scope: Scope, pipe: Pipe): void {
    const start = out.length;
    for (const statement of list) {
      const first = out.length;
      this.node(out, statement.command, scope, out.length === start ? pipe : NO_PIPE);
      // `a && b &` runs the whole list in the background.
      if (statement.background) for (let i = first; i < out.length; i++) out[i]!.background = true;
    }
  }

  /** Adds the commands a node runs to `out` (one array for the whole line: a long line makes no garbage per node). */
  private node(out: WrittenCommand[], node: PipelineNode | AndOr | CommandNode, scope: Scope, pipe: Pipe): void {
    switch (node.type) {
      case 'Command':
        return this.command(out, node, scope, pipe);
      case 'Pipeline':
        return this.pipeline(out, node.commands, scope, pipe);
      case 'AndOr': {
        const start = out.length;
        for (const child of node.commands) this.node(out, child, scope, out.length === start ? pipe : NO_PIPE);
        return;
      }
      case 'Subshell':
        return this.statements(out, node.body.commands, { ...scope, vars: { ...scope.vars } }, pipe);
      case 'BraceGroup':
        return this.statements(out, node.body.commands, scope, pipe);
      case 'Redirected':
        return this.redirected(out, node, scope, pipe);
      case 'If': {
        const lists = [node.clause, node.then, ...node.elif.flatMap((e) => [e.clause, e.then]), ...(node.else ? [node.else] : [])];
        return this.lists(out, lists.map((l) => l.commands), scope, pipe);
      }
      case 'While':
        return this.lists(out, [node.clause.commands, node.body.commands], scope, pipe);
      case 'For':
      case 'Select':
        // The word list's words only run their substitutions.
        for (const word of node.wordlist ?? []) this.wordOf(word, scope);
        return this.statements(out, node.body.commands, scope, pipe);
      case 'Case':
        this.wordOf(node.word, scope);
        return this.lists(
          out,
          node.items.map((item) => item.body.commands),
          scope,
          pipe,
        );
      case 'Function':
      case 'Coproc':
        // What a function runs is reviewed where it is defined: the line calls it or has no reason to define it.
        return node.body.type === 'CompoundList' ? this.statements(out, node.body.commands, scope, pipe) : this.node(out, node.body, scope, pipe);
      case 'ArithmeticFor':
        for (const expression of [node.initialize, node.test, node.update]) if (expression) this.substitutionsUnder(expression, scope);
        return this.statements(out, node.body.commands, scope, pipe);
      default:
        // `[[ … ]]` and `(( … ))`: only their substitutions run.
        return this.substitutionsUnder(node, scope);
    }
  }

  private lists(out: WrittenCommand[], lists: readonly (readonly Statement[])[], scope: Scope, pipe: Pipe): void {
    const start = out.length;
    for (const list of lists) this.statements(out, list, scope, out.length === start ? pipe : NO_PIPE);
  }

  private pipeline(out: WrittenCommand[], commands: readonly CommandNode[], scope: Scope, pipe: Pipe): void {
    let from = pipe;
    for (const child of commands) {
      const before = out.length;
      this.node(out, child, scope, from);
      from = out.length > before ? outputOf(out[out.length - 1]!) : PIPED;
    }
  }

  /** A compound command with redirections (`{ …; } > log`, `while read l; do …; done <<EOF`). */
  private redirected(out: WrittenCommand[], node: Redirected, scope: Scope, pipe: Pipe): void {
    const redirects: Redirect[] = [];
    let input: string | undefined;
    for (const redirection of node.redirects) input = this.redirection(redirection, scope, redirects) ?? input;
    const start = out.length;
    this.node(out, node.command, scope, input !== undefined ? { from: pipe.from, input } : pipe);
    if (out.length > start && input !== undefined) out[start]!.input = input;
    for (let i = start; i < out.length; i++) if (!out[i]!.nested) out[i]!.redirects.push(...redirects);
  }

  private command(out: WrittenCommand[], node: Command, scope: Scope, pipe: Pipe): void {
    // Assignments before a command are its own: only then does it need a scope of its own.
    const local: Scope = node.prefix.length ? { ...scope, vars: { ...scope.vars } } : scope;
    const assignments: Record<string, string> = {};
    const redirects: Redirect[] = [];
    let input = pipe.input;
    for (const item of node.prefix) {
      if (item.type === 'Assignment') {
        const value = this.assignment(item, local);
        assignments[item.name] = value;
        local.vars[item.name] = value;
      } else input = this.redirection(item, local, redirects) ?? input;
    }
    const name = node.name;
    if (!name) {
      // `A=1` alone sets a variable of this shell for the commands after it.
      for (const [key, value] of Object.entries(assignments)) scope.vars[key] = value;
      for (const item of node.suffix) if (item.type !== 'Assignment' && item.type !== 'Word') input = this.redirection(item, local, redirects) ?? input;
      return;
    }
    const first = this.wordOf(name, local);
    const words: ShellWordValue[] = [first];
    const declaration = !first.dynamic && DECLARATIONS.has(first.value);
    for (const item of node.suffix) {
      if (item.type === 'Word') {
        const word = this.wordOf(item, local);
        // A declaration changes nothing on disk: of its arguments only the options (`declare -p`) say what it does.
        if (!declaration || word.value.startsWith('-')) words.push(word);
      } else if (item.type === 'Assignment') {
        const value = this.assignment(item, local);
        if (declaration) scope.vars[item.name] = value;
        else words.push({ value: `${item.name}${item.append ? '+=' : '='}${value}`, dynamic: false });
      } else input = this.redirection(item, local, redirects) ?? input;
    }
    // `[ -f x ]` tests and changes nothing; its substitutions were walked with its words.
    if (first.value === '[' && !first.dynamic) return;
    const command: WrittenCommand = { words, assignments, redirects, pipedFrom: pipe.from, background: false, nested: scope.nested };
    if (input !== undefined) command.input = input;
    if (scope.cwd !== undefined) command.cwd = scope.cwd;
    out.push(command);
    this.followDirectoryChange(command, scope);
  }

  /** `cd ..` moves every later command of the same (sub)shell. */
  private followDirectoryChange(command: WrittenCommand, scope: Scope): void {
    const [name, target] = command.words;
    if (!name || (name.value !== 'cd' && name.value !== 'pushd')) return;
    if (!target) scope.cwd = '~';
    else if (target.dynamic || target.value === '-') scope.cwd = '?';
    else if (/^[/~]/.test(target.value) || scope.cwd === undefined) scope.cwd = target.value;
    else scope.cwd = `${scope.cwd}/${target.value}`;
  }

  private assignment(node: Assignment, scope: Scope): string {
    const value = node.value;
    if (value.type === 'ArrayValue') return value.elements.map((element) => this.wordOf(element, scope).value).join(' ');
    // `dir=$(mktemp -d)` names a fresh temporary directory.
    if (/^\$\(\s*mktemp\b/.test(value.text)) {
      this.wordOf(value, scope);
      return '/tmp/mktemp';
    }
    return this.wordOf(value, scope).value;
  }

  /** Adds a file redirection to `redirects`; returns the text a here-document or here-string feeds in. */
  private redirection(node: Redirection, scope: Scope, redirects: Redirect[]): string | undefined {
    switch (node.type) {
      case 'HereDoc': {
        redirects.push({ operator: '<<', target: node.delimiter?.text ?? '' });
        // An unquoted delimiter expands the body: its substitutions run.
        if (!node.delimiter?.quoted && /\$\(|`|<\(/.test(node.body.text)) for (const part of node.body.parts ?? []) this.part(part, scope);
        return node.body.text;
      }
      case 'HereString':
        redirects.push({ operator: '<<<', target: '' });
        return node.target ? this.wordOf(node.target, scope).value : '';
      default: {
        if (!node.target) return undefined;
        const operator = (node.descriptor?.type === 'FileDescriptor' ? String(node.descriptor.value) : '') + node.operator;
        const value = this.wordOf(node.target, scope).value;
        // `2>&1` duplicates a descriptor: no file.
        if (/[<>]&$/.test(operator) && /^\d+-?$|^-$/.test(value)) return undefined;
        redirects.push({ operator, target: value });
        return undefined;
      }
    }
  }

  /** The value of a word, and the commands of any substitution inside it (walked as nested commands). */
  wordOf(word: Word, scope: Scope): ShellWordValue {
    const parts = word.parts;
    if (!parts) return STATIC_WORD(word.value);
    if (parts.length === 1) return this.part(parts[0]!, scope);
    let value = '';
    let dynamic = false;
    for (const part of parts) {
      const piece = this.part(part, scope);
      value += piece.value;
      dynamic ||= piece.dynamic;
    }
    return { value, dynamic };
  }

  private part(part: WordPart | DoubleQuotedChild, scope: Scope): ShellWordValue {
    switch (part.type) {
      case 'Literal':
      case 'SingleQuoted':
      case 'AnsiCQuoted':
        return STATIC_WORD(part.value);
      case 'DoubleQuoted':
      case 'LocaleString': {
        let value = '';
        let dynamic = false;
        for (const child of part.parts) {
          const piece = this.part(child, scope);
          value += piece.value;
          dynamic ||= piece.dynamic;
        }
        return { value, dynamic };
      }
      case 'SimpleExpansion':
        return expandVariable(part.text.slice(1), undefined, part.text, scope.vars);
      case 'ParameterExpansion':
        return this.parameter(part, scope);
      case 'CommandExpansion':
      case 'ProcessSubstitution':
        this.substitution(part.script, scope);
        return { value: part.text, dynamic: true };
      case 'ArithmeticExpansion':
        if (part.expression) this.substitutionsUnder(part.expression, scope);
        return { value: part.text, dynamic: true };
      default:
        // Globs and brace expansions: the pattern as written.
        return STATIC_WORD(part.text);
    }
  }

  /** `${NAME}`, `${NAME:-default}`: known when the variable is, or from its default; anything else only at run time. */
  private parameter(part: ParameterExpansionPart, scope: Scope): ShellWordValue {
    const operation = part.operation;
    if (operation) this.substitutionsUnder(operation, scope);
    if (part.prefix || part.index) return { value: part.text, dynamic: true };
    if (!operation) return expandVariable(part.parameter, undefined, part.text, scope.vars);
    if (operation.type !== 'Default' || !['-', ':-', '=', ':='].includes(operation.operator)) return { value: part.text, dynamic: true };
    return expandVariable(part.parameter, this.wordOf(operation.operand, scope), part.text, scope.vars);
  }

  /** Walks the commands of `$(…)`, backticks or `<(…)` as nested commands that run before the one holding them. */
  private substitution(script: ParsedScript | undefined, scope: Scope): void {
    if (!script) return;
    this.noteErrors(script);
    const inner: Scope = { nested: true, cwd: scope.cwd, vars: { ...scope.vars } };
    // Keep the outer command's pipeline contiguous: nested commands are listed after the line's own.
    const nested: WrittenCommand[] = [];
    this.statements(nested, script.commands, inner, NO_PIPE);
    this.later.push(nested);
  }

  /** The substitutions anywhere under a node that is not a command (a test, arithmetic, an expansion's operand). */
  private substitutionsUnder(node: SyntaxNode, scope: Scope): void {
    forEachChild(node, (child) => {
      if (child.type === 'CommandExpansion' || child.type === 'ProcessSubstitution' || child.type === 'ArithmeticCommandExpansion') this.substitution(child.script, scope);
      else this.substitutionsUnder(child, scope);
    });
  }

  noteErrors(script: ParsedScript): void {
    const error = script.errors?.[0];
    if (error && this.error === undefined) this.error = describeError(error, script.source ?? this.source);
  }

  /** The line's commands, then those of its substitutions (an inner one before the one holding it). */
  finish(): WrittenCommand[] {
    for (const group of this.later) for (const command of group) this.commands.push(command);
    return this.commands;
  }
}

/** `$NAME` or `${NAME:-fallback}`: its known value, the fallback when it is unknown, or the text as written (dynamic). */
function expandVariable(name: string, fallback: ShellWordValue | undefined, text: string, vars: Record<string, string>): ShellWordValue {
  const known = Object.hasOwn(vars, name) ? vars[name] : ownEntry(KNOWN_VARIABLES, name);
  if (known !== undefined) return STATIC_WORD(known);
  return fallback ?? { value: text, dynamic: true };
}

function describeError(error: { message: string; pos: number }, source: string): string {
  const near = source.slice(error.pos, error.pos + 40).trim();
  return near ? `${error.message} near "${near}"` : error.message;
}

/** What a command writes to its output when that is known from the line: `echo x`, `printf x`, `cat` of a here-document. */
function outputOf(command: WrittenCommand): Pipe {
  const name = command.words[0]?.value;
  if (name === 'echo' || name === 'printf') return { from: true, input: command.words.slice(1).filter((w) => !/^-[neE]+$/.test(w.value)).map((w) => w.value).join(' ') };
  if (name === 'cat' && command.words.length === 1 && command.input !== undefined) return { from: true, input: command.input };
  return PIPED;
}

const OPERATOR_CHARACTER = /[;&|()<>{}!]/;

/** Where reading resumes after the token a syntax error points at. */
function afterToken(text: string, position: number): number {
  let i = position;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  if (OPERATOR_CHARACTER.test(text[i] ?? '')) while (i < text.length && OPERATOR_CHARACTER.test(text[i]!)) i++;
  else while (i < text.length && !/[\s;&|()<>]/.test(text[i]!)) i++;
  return Math.max(i, position + 1);
}

/**
 * Reads a shell line (with unbash, a maintained bash parser) into the simple commands that run, in order:
 * through lists, pipelines, subshells, groups, conditions, loops and functions, with here-documents and
 * here-strings as their input and the commands of `$(…)`, backticks and `<(…)` as nested commands. A line
 * with a syntax error is read as far as the parser recovers, then on after the token it stopped at, and the
 * error is reported.
 */
export function walkShell(text: string, vars: Record<string, string> = {}): WalkedShell {
  const walker = new Walker();
  const scope: Scope = { nested: false, cwd: undefined, vars: { ...vars } };
  let rest = text;
  for (let resumed = 0; ; resumed++) {
    const script = parse(rest);
    walker.source = rest;
    walker.statements(walker.commands, script.commands, scope, NO_PIPE);
    walker.noteErrors(script);
    const error = script.errors?.[0];
    // The parser gave up on the rest of the line only when the error lies past what it read.
    if (!error || error.pos < (script.commands.at(-1)?.end ?? 0) || resumed === MAX_RESUMPTIONS) break;
    const next = afterToken(rest, error.pos);
    if (next >= rest.length) break;
    rest = rest.slice(next);
  }
  const commands = walker.finish();
  return walker.error === undefined ? { commands } : { commands, syntaxError: walker.error };
}
