import { joinContinuationLines, withShellTree, type SyntaxNode } from './shell-grammar.js';

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

interface Scope {
  nested: boolean;
  cwd: string | undefined;
  vars: Record<string, string>;
}

class Walker {
  readonly commands: WrittenCommand[] = [];
  private readonly later: WrittenCommand[][] = [];
  error: string | undefined;

  /** `type` is the node's type, read once by the caller: every property of a node is a call into WebAssembly. */
  statement(node: SyntaxNode, type: string, scope: Scope, pipe: { from: boolean; input?: string }, background = false): WrittenCommand[] {
    switch (type) {
      case 'command':
        return [this.command(node, scope, pipe, background)];
      case 'redirected_statement':
        return this.redirected(node, scope, pipe, background);
      case 'pipeline':
        return this.pipeline(node, scope, pipe, background);
      case 'subshell':
        return this.sequence(node.namedChildren, { ...scope, vars: { ...scope.vars } }, pipe);
      case 'variable_assignment':
        this.assign(node, scope);
        return [];
      case 'declaration_command': {
        for (const child of node.namedChildren) if (child.type === 'variable_assignment') this.assign(child, scope);
        return [this.pseudo(node, scope, pipe)];
      }
      case 'ERROR':
        this.error ??= `cannot parse near "${node.text.slice(0, 40)}"`;
        return this.sequence(node.namedChildren, scope, pipe);
      case 'comment':
      case 'heredoc_body':
      case 'heredoc_end':
      case 'heredoc_start':
        return [];
      default:
        // Lists, groups, loops, conditions, functions: what runs is in their children.
        return this.sequence(node.namedChildren, scope, pipe);
    }
  }

  /** Named statements in order; a statement followed by `&` runs in the background. */
  sequence(nodes: readonly SyntaxNode[], scope: Scope, pipe: { from: boolean; input?: string }): WrittenCommand[] {
    const out: WrittenCommand[] = [];
    for (const child of nodes) {
      const type = child.type;
      if (isWordNode(type)) {
        // A condition's or loop header's words: only their substitutions run.
        this.substitutions(child, type, scope);
        continue;
      }
      const background = child.nextSibling?.type === '&';
      out.push(...this.statement(child, type, scope, out.length ? { from: false } : pipe, background));
    }
    return out;
  }

  private pipeline(node: SyntaxNode, scope: Scope, pipe: { from: boolean; input?: string }, background: boolean): WrittenCommand[] {
    const out: WrittenCommand[] = [];
    let from = pipe;
    for (const child of node.namedChildren) {
      const produced = this.statement(child, child.type, scope, from, background);
      out.push(...produced);
      const last = produced.at(-1);
      from = { from: true, ...(last ? outputOf(last) : {}) };
    }
    return out;
  }

  private redirected(node: SyntaxNode, scope: Scope, pipe: { from: boolean; input?: string }, background: boolean): WrittenCommand[] {
    const body = node.childForFieldName('body');
    const redirects: Redirect[] = [];
    let input: string | undefined;
    const continuation: SyntaxNode[] = [];
    const extraWords: ShellWordValue[] = [];
    const continuationTypes: string[] = [];
    for (const child of node.namedChildren) {
      if (body && child.equals(body)) continue;
      const type = child.type;
      if (type === 'heredoc_redirect') {
        let start: SyntaxNode | undefined;
        for (const part of child.namedChildren) {
          const partType = part.type;
          if (partType === 'heredoc_body') input = part.text;
          else if (partType === 'heredoc_start') start ??= part;
          else if (partType !== 'heredoc_end') {
            continuation.push(part);
            continuationTypes.push(partType);
          }
        }
        redirects.push({ operator: '<<', target: start?.text ?? '' });
      } else if (type === 'herestring_redirect') {
        input = this.word(child.namedChildren.at(-1) ?? child, scope).value;
        redirects.push({ operator: '<<<', target: '' });
      } else if (type === 'file_redirect') {
        const { redirect, extra } = this.fileRedirect(child, scope);
        if (redirect) redirects.push(redirect);
        extraWords.push(...extra);
      }
    }
    const bodyType = body?.type;
    const produced = body ? this.statement(body, bodyType!, scope, input !== undefined ? { from: pipe.from, input } : pipe, background) : [];
    const first = produced[0];
    if (first && extraWords.length && bodyType === 'command') first.words.push(...extraWords);
    if (first && input !== undefined) first.input = input;
    for (const command of produced) if (!command.nested) command.redirects.push(...redirects);
    // `cat <<EOF | bash`: the rest of the line after the here-document operator.
    let from: { from: boolean; input?: string } = { from: true, ...(produced.at(-1) ? outputOf(produced.at(-1)!) : {}) };
    for (const [i, part] of continuation.entries()) {
      const type = continuationTypes[i]!;
      const more = type === 'pipeline' ? this.pipelineTail(part, scope, from) : this.statement(part, type, scope, from);
      produced.push(...more);
      if (more.at(-1)) from = { from: true, ...outputOf(more.at(-1)!) };
    }
    return produced;
  }

  private pipelineTail(node: SyntaxNode, scope: Scope, from: { from: boolean; input?: string }): WrittenCommand[] {
    return this.pipeline(node, scope, from, false);
  }

  private command(node: SyntaxNode, scope: Scope, pipe: { from: boolean; input?: string }, background: boolean): WrittenCommand {
    const words: ShellWordValue[] = [];
    const assignments: Record<string, string> = {};
    const redirects: Redirect[] = [];
    let input = pipe.input;
    const local = { ...scope, vars: { ...scope.vars } };
    for (const child of node.namedChildren) {
      const type = child.type;
      switch (type) {
        case 'variable_assignment': {
          const { name, value } = this.assignment(child, local);
          assignments[name] = value;
          local.vars[name] = value;
          break;
        }
        case 'file_redirect': {
          const { redirect, extra } = this.fileRedirect(child, local);
          if (redirect) redirects.push(redirect);
          words.push(...extra);
          break;
        }
        case 'herestring_redirect':
          input = this.word(child.namedChildren.at(-1) ?? child, local).value;
          redirects.push({ operator: '<<<', target: '' });
          break;
        case 'command_name':
          words.push(this.word(child.namedChildren[0] ?? child, local));
          break;
        default:
          if (type !== 'comment') words.push(this.wordOf(child, type, local));
      }
    }
    const command: WrittenCommand = { words, assignments, redirects, pipedFrom: pipe.from, background, nested: scope.nested };
    if (input !== undefined) command.input = input;
    if (scope.cwd !== undefined) command.cwd = scope.cwd;
    this.commands.push(command);
    this.followDirectoryChange(command, scope);
    return command;
  }

  /** A declaration (`export A=1`) as a command of its own: it runs, and changes nothing on disk. */
  private pseudo(node: SyntaxNode, scope: Scope, pipe: { from: boolean }): WrittenCommand {
    const command: WrittenCommand = { words: [{ value: node.firstChild?.text ?? 'export', dynamic: false }], assignments: {}, redirects: [], pipedFrom: pipe.from, background: false, nested: scope.nested };
    this.commands.push(command);
    return command;
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

  private assign(node: SyntaxNode, scope: Scope): void {
    const { name, value } = this.assignment(node, scope);
    scope.vars[name] = value;
  }

  private assignment(node: SyntaxNode, scope: Scope): { name: string; value: string } {
    const name = node.childForFieldName('name')?.text ?? node.text.split('=')[0] ?? '';
    const valueNode = node.childForFieldName('value');
    if (!valueNode) return { name, value: '' };
    const type = valueNode.type;
    // `dir=$(mktemp -d)` names a fresh temporary directory.
    if (type === 'command_substitution' && /^\$\(\s*mktemp\b/.test(valueNode.text)) {
      this.substitutions(valueNode, type, scope);
      return { name, value: '/tmp/mktemp' };
    }
    return { name, value: this.wordOf(valueNode, type, scope).value };
  }

  /**
   * A redirection; tree-sitter also hangs the words after it on it (`rm -rf 2>/dev/null /`), which are
   * the command's arguments: they are returned in `extra`.
   */
  private fileRedirect(node: SyntaxNode, scope: Scope): { redirect: Redirect | null; extra: ShellWordValue[] } {
    let operator = '';
    let target: SyntaxNode | null = null;
    const extra: ShellWordValue[] = [];
    let targetType = '';
    for (const child of node.children) {
      const type = child.type;
      if (!child.isNamed) operator += type;
      else if (type === 'file_descriptor') operator = child.text + operator;
      else if (!target) {
        target = child;
        targetType = type;
      } else extra.push(this.wordOf(child, type, scope));
    }
    if (!target) return { redirect: null, extra };
    const value = this.wordOf(target, targetType, scope).value;
    // `2>&1` duplicates a descriptor: no file.
    if (/[<>]&$/.test(operator) && /^\d+-?$|^-$/.test(value)) return { redirect: null, extra };
    return { redirect: { operator, target: value }, extra };
  }

  /** The value of a word node of this type, and the commands of any substitution inside it (walked as nested commands). */
  wordOf(node: SyntaxNode, type: string, scope: Scope): ShellWordValue {
    this.substitutions(node, type, scope);
    return valueOf(node, type, scope.vars);
  }

  private word(node: SyntaxNode, scope: Scope): ShellWordValue {
    return this.wordOf(node, node.type, scope);
  }

  /** Walks `$(…)`, backticks and `<(…)` found anywhere under a node of this type, as nested commands run before it. */
  substitutions(node: SyntaxNode, type: string, scope: Scope): void {
    // Leaves hold no substitution: not asking WebAssembly for their children keeps long lines fast.
    if (type === 'word' || type === 'raw_string' || type === 'number' || type === 'ansi_c_string' || type === 'string_content' || type === 'variable_name' || type === 'simple_expansion') return;
    if (type === 'command_substitution' || type === 'process_substitution') {
      const inner = { nested: true, cwd: scope.cwd, vars: { ...scope.vars } };
      const before = this.commands.length;
      this.sequence(node.namedChildren, inner, { from: false });
      // Keep the outer command's pipeline contiguous: nested commands are listed after the line's own.
      this.later.push(this.commands.splice(before));
      return;
    }
    for (const child of node.namedChildren) this.substitutions(child, child.type, scope);
  }

  finish(): WrittenCommand[] {
    for (const group of this.later) this.commands.push(...group);
    return this.commands;
  }
}

function isWordNode(type: string): boolean {
  return (
    type === 'word' || type === 'string' || type === 'raw_string' || type === 'concatenation' || type === 'simple_expansion' || type === 'expansion' ||
    type === 'number' || type === 'test_command' || type === 'command_substitution' || type === 'arithmetic_expansion' || type === 'ansi_c_string' ||
    type === 'process_substitution' || type === 'variable_name' || type === 'binary_expression' || type === 'unary_expression'
  );
}

/** What a command writes to its output when that is known from the line: `echo x`, `printf x`, `cat` of a here-document. */
function outputOf(command: WrittenCommand): { input?: string } {
  const name = command.words[0]?.value;
  if (name === 'echo' || name === 'printf') return { input: command.words.slice(1).filter((w) => !/^-[neE]+$/.test(w.value)).map((w) => w.value).join(' ') };
  if (name === 'cat' && command.words.length === 1 && command.input !== undefined) return { input: command.input };
  return {};
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\u0007', b: '\b', e: '\u001b', E: '\u001b', f: '\f', v: '\v', '?': '?' };

function expand(node: SyntaxNode, type: string, vars: Record<string, string>): ShellWordValue {
  const text = node.text;
  const name = type === 'simple_expansion' ? text.slice(1) : node.namedChildren.find((c) => c.type === 'variable_name')?.text;
  if (!name) return { value: text, dynamic: true };
  const known = vars[name] ?? KNOWN_VARIABLES[name];
  if (known !== undefined && (type === 'simple_expansion' || /^\$\{\w+(?::?[-=][^}]*)?\}$/.test(text))) return { value: known, dynamic: false };
  // `${TMPDIR:-/tmp}`: the default when the variable is unknown.
  const fallback = /^\$\{\w+:?[-=]([^}]*)\}$/.exec(text);
  if (fallback && known === undefined) return { value: fallback[1]!, dynamic: false };
  return { value: text, dynamic: true };
}

/** Quote removal and the expansions Warden can do without running anything, for a node of this type. */
export function valueOf(node: SyntaxNode, type: string, vars: Record<string, string>): ShellWordValue {
  switch (type) {
    case 'word':
    case 'command_name':
      return { value: node.text.replace(/\\(.)/gs, '$1'), dynamic: false };
    case 'raw_string':
      return { value: node.text.slice(1, -1), dynamic: false };
    case 'ansi_c_string':
      return { value: node.text.slice(2, -1).replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/gs, (_, e: string) => decodeEscape(e)), dynamic: false };
    case 'string':
    case 'translated_string': {
      let value = '';
      let dynamic = false;
      const inner = type === 'translated_string' ? node.namedChildren[0] : node;
      for (const child of inner?.namedChildren ?? []) {
        const childType = child.type;
        if (childType === 'string_content') value += child.text.replace(/\\([$`"\\\n])/g, '$1');
        else {
          const part = valueOf(child, childType, vars);
          value += part.value;
          dynamic ||= part.dynamic;
        }
      }
      // A string's children skip its literal parts between expansions' neighbours only when empty: trust text when there are none.
      if (!inner?.namedChildren.length) value = node.text.replace(/^\$?"|"$/g, '');
      return { value, dynamic };
    }
    case 'concatenation': {
      let value = '';
      let dynamic = false;
      for (const child of node.children) {
        const part = child.isNamed ? valueOf(child, child.type, vars) : { value: child.text, dynamic: false };
        value += part.value;
        dynamic ||= part.dynamic;
      }
      return { value, dynamic };
    }
    case 'simple_expansion':
    case 'expansion':
      return expand(node, type, vars);
    case 'number':
    case 'brace_expression':
      return { value: node.text, dynamic: false };
    default:
      return { value: node.text, dynamic: true };
  }
}

function decodeEscape(escape: string): string {
  if (escape.startsWith('x')) return String.fromCharCode(Number.parseInt(escape.slice(1), 16));
  if (/^[0-7]+$/.test(escape)) return String.fromCharCode(Number.parseInt(escape, 8));
  return ESCAPES[escape] ?? `\\${escape}`;
}

/**
 * Reads a shell line into the simple commands that run, in order: through lists, pipelines, subshells,
 * groups, conditions and loops, with here-documents and here-strings as their input and the commands of
 * `$(…)`, backticks and `<(…)` as nested commands. A line with a syntax error is read as far as the
 * parser recovers, and the error is reported.
 */
export function walkShell(text: string, vars: Record<string, string> = {}): WalkedShell {
  const source = joinContinuationLines(text);
  return withShellTree(source, (root) => {
    const walker = new Walker();
    walker.sequence(root.namedChildren, { nested: false, cwd: undefined, vars: { ...vars } }, { from: false });
    const commands = walker.finish();
    let syntaxError = walker.error;
    if (!syntaxError && root.hasError) syntaxError = missingOf(root) ?? 'cannot parse the command';
    return syntaxError ? { commands, syntaxError } : { commands };
  });
}

/** The first missing token tree-sitter had to invent (an unterminated quote, a missing `fi`). */
function missingOf(node: SyntaxNode): string | undefined {
  if (node.isMissing) return `missing "${node.type}"`;
  for (const child of node.children) {
    if (!child.hasError && !child.isMissing) continue;
    const found = missingOf(child);
    if (found) return found;
  }
  return undefined;
}
