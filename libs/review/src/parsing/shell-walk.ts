import { forEachChild, parse, type Assignment, type CommandNode, type Command, type ParsedScript, type PipelineNode, type AndOr, type Redirection, type Statement, type SyntaxNode, type Word, type WordPart, type DoubleQuotedChild, type ParameterExpansionPart, type Redirected, type Function as FunctionNode, type Coproc } from 'unbash';
import { ownEntry } from '../own-entry.js';
import { MAY_SPLIT, wordFields, type KnownValues } from './word-fields.js';

export interface Redirect {
  operator: string;
  target: string;
}

/** A simple command as written, before wrappers (sudo, env, xargs …) are looked through. */
export interface WrittenCommand {
  /** Its words, quotes removed and known variables expanded. */
  argv: string[];
  /** Per word: it holds an expansion or substitution whose value is only known when the command runs. */
  dynamic: boolean[];
  /** Assignments written before the command (`TMPDIR=/x rm …`); shared and frozen when there are none. */
  assignments: Record<string, string>;
  /** Shared and frozen when there are none. */
  redirects: readonly Redirect[];
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
const KNOWN_VARIABLES: Record<string, string> = { HOME: '~', TMPDIR: '/tmp', TMP: '/tmp', TEMP: '/tmp', SHELL: '/bin/sh' };

/** Builtins whose `NAME=value` arguments set variables of the shell instead of being passed on. */
const DECLARATIONS: ReadonlySet<string> = new Set(['export', 'local', 'declare', 'typeset', 'readonly']);

/** What makes a word more than its text: quotes, escapes, expansions, substitutions. */
const WORD_STRUCTURE = /[$`'"\\<>]/;

/** How often a line is read on after a syntax error the parser does not recover from by itself. */
const MAX_RESUMPTIONS = 8;
/** The most words of a `for` list whose body is read once per word. */
const MAX_LOOP_VALUES = 8;
/** The most loop bodies a line's loops are read for, once per word, in all. */
const MAX_LOOP_WALKS = 32;
/** A word the shell would expand to file names or several words. */
const GLOB = /[*?[{]/;

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

/** What most commands have none of: one frozen instance instead of an empty one per command (a long line has hundreds). */
const NO_ASSIGNMENTS: Readonly<Record<string, string>> = Object.freeze({});
const NO_REDIRECTS: readonly Redirect[] = Object.freeze([]);

/**
 * What `$(echo word …)` or `$(printf '%s' word …)` prints (a few of them in a row too: `$(printf '%s' rm;
 * printf '%s' ' -rf /')`) when their words are literal text (no option, no directive but `%s`, no
 * expansion), without the trailing newlines the substitution drops; undefined otherwise.
 */
function printedText(script: ParsedScript | undefined): string | undefined {
  if (!script?.commands.length || script.commands.length > 8) return undefined;
  let printed = '';
  for (const statement of script.commands) {
    const command = statement.background ? undefined : statement.command;
    if (command?.type !== 'Command' || command.prefix.length || !command.name || command.suffix.length !== command.args.length) return undefined;
    const program = command.name.text;
    if (program !== 'echo' && program !== 'printf') return undefined;
    const words: string[] = [];
    for (const arg of command.args) {
      const word = arg.type === 'Word' ? literalWord(arg) : undefined;
      if (word === undefined || (program === 'echo' && word.includes('\\'))) return undefined;
      // An option only where it comes first (echo's are -n, -e, -E): `echo rm -rf /` prints `-rf`.
      if (!words.length && (program === 'printf' ? word.startsWith('-') : /^-[neE]+$/.test(word))) return undefined;
      words.push(word);
    }
    const text = program === 'echo' ? `${words.join(' ')}\n` : formatted(words);
    if (text === undefined) return undefined;
    printed += text;
  }
  // A substitution drops the trailing newlines of what it prints.
  printed = printed.replace(/\n+$/, '');
  return printed || undefined;
}

/** A word's value when it is only literal text, quoted or not (`rm`, `' -rf /'`, `"a b"`); undefined when it expands anything. */
function literalWord(word: Word): string | undefined {
  if (!WORD_STRUCTURE.test(word.text)) return word.text;
  if (!word.parts) return /[$`\\]/.test(word.text) ? undefined : word.value;
  let value = '';
  for (const part of word.parts) {
    if (part.type === 'Literal' || part.type === 'SingleQuoted') value += part.value;
    else if (part.type === 'DoubleQuoted' && part.parts.every((c) => c.type === 'Literal')) value += part.parts.map((c) => (c as { value: string }).value).join('');
    else return undefined;
  }
  return value;
}

/** What printf prints of a format with `%s` (and `%%`) only, used again while arguments are left; anything else is unknown. */
function formatted(words: readonly string[]): string | undefined {
  const [format, ...args] = words;
  if (format === undefined || /%(?![s%])|\\/.test(format)) return undefined;
  const slots = (format.match(/%s/g) ?? []).length;
  let out = '';
  let next = 0;
  do {
    out += format.replace(/%%|%s/g, (m) => (m === '%%' ? '%' : (args[next++] ?? '')));
  } while (slots > 0 && next < args.length);
  return out;
}

/** Calls of a function of the line inside another followed at most this deep (a recursion ends there). */
const MAX_CALL_DEPTH = 4;

class Walker {
  readonly commands: WrittenCommand[] = [];
  /** The functions the line defines, by name, each with the scope it was defined in and whether the line calls it. */
  private readonly functions = new Map<string, { node: FunctionNode; scope: Scope; called: boolean }>();
  /** Loop bodies still to be read once per word: nested loops would otherwise multiply them. */
  private loopWalks = MAX_LOOP_WALKS;
  private depth = 0;
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
      case 'Select': {
        // `for lib in libs/a libs/b; do rm -rf "$lib/.build"; done`: a short list of words known as written runs the
        // body once with each, as the shell does; otherwise the body runs once with the variable unknown.
        const values: string[] = [];
        let known = node.type === 'For';
        for (const word of node.wordlist ?? []) {
          const value = this.wordOf(word, scope);
          const fields = MAY_SPLIT.test(word.text) ? wordFields(word, knownIn(scope)) : undefined;
          if (fields) {
            for (const field of fields) values.push(field.value);
            known &&= fields.every((field) => !field.dynamic && !GLOB.test(field.value));
            continue;
          }
          values.push(value);
          known &&= !this.dynamic && !GLOB.test(value);
        }
        const variable = node.name.text;
        if (known && values.length > 0 && values.length <= MAX_LOOP_VALUES && values.length <= this.loopWalks) {
          this.loopWalks -= values.length;
          for (const value of values) {
            scope.vars[variable] = value;
            this.statements(out, node.body.commands, scope, pipe);
          }
          return;
        }
        delete scope.vars[variable];
        return this.statements(out, node.body.commands, scope, pipe);
      }
      case 'Case':
        this.wordOf(node.word, scope);
        return this.lists(
          out,
          node.items.map((item) => item.body.commands),
          scope,
          pipe,
        );
      case 'Function':
        // A function runs where the line calls it, its arguments as $1, $2 …: reviewed there (command()). One
        // the line never calls is reviewed where it is defined (finish()): the line has no other reason to define it.
        if (!WORD_STRUCTURE.test(node.name.text)) {
          this.functions.set(node.name.text, { node, scope, called: false });
          return;
        }
        return this.body(out, node, scope, pipe);
      case 'Coproc':
        return this.body(out, node, scope, pipe);
      case 'ArithmeticFor':
        for (const expression of [node.initialize, node.test, node.update]) if (expression) this.substitutionsUnder(expression, scope);
        return this.statements(out, node.body.commands, scope, pipe);
      default:
        // `[[ … ]]` and `(( … ))`: only their substitutions run.
        return this.substitutionsUnder(node, scope);
    }
  }

  /** The commands of a function's or a coprocess's body. */
  private body(out: WrittenCommand[], node: FunctionNode | Coproc, scope: Scope, pipe: Pipe): void {
    if (node.body.type === 'CompoundList') this.statements(out, node.body.commands, scope, pipe);
    else this.node(out, node.body, scope, pipe);
  }

  /** A call of a function the line defined: its body, with the call's known arguments as $1 … $9. */
  private call(out: WrittenCommand[], node: FunctionNode, argv: readonly string[], dynamic: readonly boolean[], scope: Scope, pipe: Pipe): void {
    const vars = { ...scope.vars };
    for (let i = 1; i <= 9; i++) {
      if (i < argv.length && !dynamic[i]) vars[String(i)] = argv[i]!;
      else delete vars[String(i)];
    }
    this.depth++;
    this.body(out, node, { nested: scope.nested, cwd: scope.cwd, vars }, pipe);
    this.depth--;
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
    if (redirects.length) for (let i = start; i < out.length; i++) if (!out[i]!.nested) out[i]!.redirects = [...out[i]!.redirects, ...redirects];
  }

  private command(out: WrittenCommand[], node: Command, scope: Scope, pipe: Pipe): void {
    // Assignments before a command are its own: only then does it need a scope of its own.
    const local: Scope = node.prefix.length ? { ...scope, vars: { ...scope.vars } } : scope;
    let assignments: Record<string, string> | undefined;
    // Made only for a command that has redirections (most have none).
    let redirects: Redirect[] | undefined;
    let input = pipe.input;
    for (const item of node.prefix) {
      if (item.type === 'Assignment') {
        const value = this.assignment(item, local);
        (assignments ??= {})[item.name] = value;
        local.vars[item.name] = value;
      } else input = this.redirection(item, local, (redirects ??= [])) ?? input;
    }
    const name = node.name;
    if (!name) {
      // `A=1` alone sets a variable of this shell for the commands after it.
      if (assignments) for (const [key, value] of Object.entries(assignments)) scope.vars[key] = value;
      for (const item of node.suffix) if (item.type !== 'Assignment' && item.type !== 'Word') input = this.redirection(item, local, (redirects ??= [])) ?? input;
      // `> file` alone opens the file as any command would: it empties it (`: > file`).
      if (redirects?.length) {
        const command: WrittenCommand = { argv: [], dynamic: [], assignments: NO_ASSIGNMENTS, redirects, pipedFrom: pipe.from, background: false, nested: scope.nested };
        if (scope.cwd !== undefined) command.cwd = scope.cwd;
        out.push(command);
      }
      return;
    }
    let first = this.wordOf(name, local);
    let firstDynamic = this.dynamic;
    // `{rm,-rf,/}` and `rm${IFS}-rf${IFS}/` are several words: the first is the program.
    const nameFields = MAY_SPLIT.test(name.text) ? wordFields(name, knownIn(local)) : undefined;
    if (nameFields) ({ value: first, dynamic: firstDynamic } = nameFields[0]!);
    // Lists of the size the words need: grown one push at a time, each would be reallocated to 17 slots.
    let size = 1;
    for (const item of node.suffix) if (item.type === 'Word' || item.type === 'Assignment') size++;
    const argv = new Array<string>(size);
    const dynamic = new Array<boolean>(size);
    argv[0] = first;
    dynamic[0] = firstDynamic;
    let count = 1;
    if (nameFields) {
      for (let i = 1; i < nameFields.length; i++) {
        argv[count] = nameFields[i]!.value;
        dynamic[count++] = nameFields[i]!.dynamic;
      }
    }
    const declaration = !firstDynamic && DECLARATIONS.has(first);
    for (const item of node.suffix) {
      if (item.type === 'Word') {
        const word = this.wordOf(item, local);
        const fields = MAY_SPLIT.test(item.text) ? wordFields(item, knownIn(local)) : undefined;
        if (fields && !declaration) {
          for (const field of fields) {
            argv[count] = field.value;
            dynamic[count++] = field.dynamic;
          }
          continue;
        }
        // A declaration changes nothing on disk: of its arguments only the options (`declare -p`) say what it does.
        if (!declaration || word.startsWith('-')) {
          argv[count] = word;
          dynamic[count++] = this.dynamic;
        }
      } else if (item.type === 'Assignment') {
        const value = this.assignment(item, local);
        if (declaration) scope.vars[item.name] = value;
        else {
          argv[count] = `${item.name}${item.append ? '+=' : '='}${value}`;
          dynamic[count++] = false;
        }
      } else input = this.redirection(item, local, (redirects ??= [])) ?? input;
    }
    // Setting a list's length is a call into the runtime even when it does not change: only a declaration's words are left out.
    if (count < size) {
      argv.length = count;
      dynamic.length = count;
    }
    // `[ -f x ]` tests and changes nothing; its substitutions were walked with its words.
    if (first === '[' && !firstDynamic) return;
    // A function of the line runs its body (not a program of that name); a recursion is followed a few calls deep.
    const defined = firstDynamic ? undefined : this.functions.get(first);
    if (defined && this.depth < MAX_CALL_DEPTH) {
      defined.called = true;
      const start = out.length;
      this.call(out, defined.node, argv, dynamic, scope, input !== undefined ? { from: pipe.from, input } : pipe);
      // The call's redirections are its body's (`f > ~/.bashrc` writes what f prints there).
      if (redirects?.length) for (let i = start; i < out.length; i++) if (!out[i]!.nested) out[i]!.redirects = [...out[i]!.redirects, ...redirects];
      // A body that runs nothing still opens the call's files: the call stands as a command then.
      if (out.length > start || !redirects?.length) return;
    }
    const command: WrittenCommand = {
      argv,
      dynamic,
      assignments: assignments ?? NO_ASSIGNMENTS,
      redirects: redirects?.length ? redirects : NO_REDIRECTS,
      pipedFrom: pipe.from,
      background: false,
      nested: scope.nested,
    };
    if (input !== undefined) command.input = input;
    if (scope.cwd !== undefined) command.cwd = scope.cwd;
    out.push(command);
    this.followDirectoryChange(command, scope);
  }

  /** `cd ..` moves every later command of the same (sub)shell. */
  private followDirectoryChange(command: WrittenCommand, scope: Scope): void {
    const [name, target] = command.argv;
    if (name !== 'cd' && name !== 'pushd') return;
    if (target === undefined) scope.cwd = '~';
    else if (command.dynamic[1] || target === '-') scope.cwd = '?';
    else if (/^[/~]/.test(target) || scope.cwd === undefined) scope.cwd = target;
    else scope.cwd = `${scope.cwd}/${target}`;
  }

  private assignment(node: Assignment, scope: Scope): string {
    const value = node.value;
    if (value.type === 'ArrayValue') return value.elements.map((element) => this.wordOf(element, scope)).join(' ');
    // `dir=$(mktemp -d)` names a fresh temporary directory.
    if (/^\$\(\s*mktemp\b/.test(value.text)) {
      this.wordOf(value, scope);
      return '/tmp/mktemp';
    }
    return this.wordOf(value, scope);
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
        return node.target ? this.wordOf(node.target, scope) : '';
      default: {
        if (!node.target) return undefined;
        const operator = (node.descriptor?.type === 'FileDescriptor' ? String(node.descriptor.value) : '') + node.operator;
        const value = this.wordOf(node.target, scope);
        // `2>&1` duplicates a descriptor: no file.
        if (/[<>]&$/.test(operator) && /^\d+-?$|^-$/.test(value)) return undefined;
        redirects.push({ operator, target: value });
        // `bash < <(echo …)`: the input is what the substitution prints, when the line says it.
        const only = node.target.parts?.length === 1 ? node.target.parts[0] : undefined;
        return operator === '<' && only?.type === 'ProcessSubstitution' && only.operator === '<' ? printedText(only.script) : undefined;
      }
    }
  }

  /**
   * Whether the word or part read last holds an expansion or substitution whose value is only known when
   * the command runs. Set by `wordOf` and `part`, read right after the call: words are strings, not an
   * object each (a long line has thousands).
   */
  dynamic = false;

  /** The value of a word, and the commands of any substitution inside it (walked as nested commands). */
  wordOf(word: Word, scope: Scope): string {
    // Most words are plain text (no quote, escape, expansion or substitution): their value is what is written,
    // and unbash need not read them again for their parts (globs and braces stand as written either way).
    if (!WORD_STRUCTURE.test(word.text)) {
      this.dynamic = false;
      return word.text;
    }
    const parts = word.parts;
    if (!parts) {
      this.dynamic = false;
      return word.value;
    }
    if (parts.length === 1) return this.part(parts[0]!, scope);
    return this.joined(parts, scope);
  }

  /** The parts of a word or double-quoted string, one after the other. */
  private joined(parts: readonly (WordPart | DoubleQuotedChild)[], scope: Scope): string {
    let value = '';
    let dynamic = false;
    for (const part of parts) {
      value += this.part(part, scope);
      dynamic ||= this.dynamic;
    }
    this.dynamic = dynamic;
    return value;
  }

  private part(part: WordPart | DoubleQuotedChild, scope: Scope): string {
    switch (part.type) {
      case 'Literal':
      case 'SingleQuoted':
      case 'AnsiCQuoted':
        this.dynamic = false;
        return part.value;
      case 'DoubleQuoted':
      case 'LocaleString':
        return this.joined(part.parts, scope);
      case 'SimpleExpansion':
        return this.variable(part.text.slice(1), part.text, scope.vars);
      case 'ParameterExpansion':
        return this.parameter(part, scope);
      case 'CommandExpansion': {
        this.substitution(part.script, scope);
        // `kubectl $(echo delete) pod x`: what an echo of plain words prints is known before it runs.
        const printed = printedText(part.script);
        this.dynamic = printed === undefined;
        return printed ?? part.text;
      }
      case 'ProcessSubstitution':
        this.substitution(part.script, scope);
        this.dynamic = true;
        return part.text;
      case 'ArithmeticExpansion':
        if (part.expression) this.substitutionsUnder(part.expression, scope);
        this.dynamic = true;
        return part.text;
      default:
        // Globs and brace expansions: the pattern as written.
        this.dynamic = false;
        return part.text;
    }
  }

  /** `${NAME}`, `${NAME:-default}`: known when the variable is, or from its default; anything else only at run time. */
  private parameter(part: ParameterExpansionPart, scope: Scope): string {
    const operation = part.operation;
    if (operation) this.substitutionsUnder(operation, scope);
    if (part.prefix || part.index || (operation && (operation.type !== 'Default' || !['-', ':-', '=', ':='].includes(operation.operator)))) {
      this.dynamic = true;
      return part.text;
    }
    if (!operation) return this.variable(part.parameter, part.text, scope.vars);
    const known = knownVariable(part.parameter, scope.vars);
    if (known !== undefined) {
      // The default's substitutions run only when the variable is unset: still walked, as bash may.
      this.wordOf(operation.operand, scope);
      this.dynamic = false;
      return known;
    }
    return this.wordOf(operation.operand, scope);
  }

  /** `$NAME`: its known value, or the text as written (dynamic). */
  private variable(name: string, text: string, vars: Record<string, string>): string {
    const known = knownVariable(name, vars);
    this.dynamic = known === undefined;
    return known ?? text;
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
    for (const defined of this.functions.values()) if (!defined.called) this.body(this.commands, defined.node, defined.scope, NO_PIPE);
    for (const group of this.later) for (const command of group) this.commands.push(command);
    return this.commands;
  }
}

/** What the line says of the values a word of this scope is made of. */
function knownIn(scope: Scope): KnownValues {
  return { printed: (part) => printedText(part.script), variable: (name) => knownVariable(name, scope.vars) };
}

/** A variable's value when Warden knows it without running anything. */
function knownVariable(name: string, vars: Record<string, string>): string | undefined {
  return Object.hasOwn(vars, name) ? vars[name] : ownEntry(KNOWN_VARIABLES, name);
}

function describeError(error: { message: string; pos: number }, source: string): string {
  const near = source.slice(error.pos, error.pos + 40).trim();
  return near ? `${error.message} near "${near}"` : error.message;
}

/** What a command writes to its output when that is known from the line: `echo x`, `printf x`, `cat` of a here-document. */
function outputOf(command: WrittenCommand): Pipe {
  const name = command.argv[0];
  if (name === 'echo' || name === 'printf') return { from: true, input: command.argv.slice(1).filter((w) => !/^-[neE]+$/.test(w)).join(' ') };
  if (name === 'cat' && command.argv.length === 1 && command.input !== undefined) return { from: true, input: command.input };
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
