import { createRequire } from 'node:module';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';

/**
 * The bash grammar of tree-sitter (a maintained, error-tolerant parser), compiled to WebAssembly.
 * Loading WebAssembly is asynchronous, so it happens once, when this module is first imported (top-level
 * await); parsing afterwards is synchronous, as the step reviewer's review is.
 */
const require = createRequire(import.meta.url);
await Parser.init();
const bash = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
const parser = new Parser();
parser.setLanguage(bash);

export type SyntaxNode = Node;

/**
 * Bash removes a backslash-newline before it reads words (`git re\⏎set` is `git reset`); tree-sitter
 * keeps it as a word break. Removed here outside single quotes.
 */
export function joinContinuationLines(text: string): string {
  if (!text.includes('\\\n') && !text.includes('\\\r\n')) return text;
  let out = '';
  let single = false;
  let double = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (single) {
      if (c === "'") single = false;
      out += c;
    } else if (c === '\\') {
      if (text[i + 1] === '\n') i++;
      else if (text[i + 1] === '\r' && text[i + 2] === '\n') i += 2;
      else {
        out += c + (text[i + 1] ?? '');
        i++;
      }
    } else {
      if (c === "'" && !double) single = true;
      else if (c === '"') double = !double;
      out += c;
    }
  }
  return out;
}

/** Parses shell text and hands the syntax tree to `read`; the tree is freed afterwards (it lives in WebAssembly memory). */
export function withShellTree<T>(text: string, read: (root: SyntaxNode) => T): T {
  const tree: Tree | null = parser.parse(text);
  if (!tree) throw new Error('the shell parser returned no tree');
  try {
    return read(tree.rootNode);
  } finally {
    tree.delete();
  }
}
