import { isMap, isNode, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

export type DocumentPath = readonly (string | number)[];

/** Where something is in a file: 1-based line and column. */
export interface Place {
  line: number;
  column: number;
}

/**
 * A YAML (or JSON) document with the place of everything in it, so that a finding can name the line of a
 * rule, a field, or an unknown key.
 */
export class PlacedDocument {
  readonly value: unknown;
  /** The first syntax error, with its place, when the text is not valid YAML. */
  readonly error?: { message: string; place?: Place };
  private readonly lines = new LineCounter();
  private readonly document;

  constructor(text: string) {
    this.document = parseDocument(text, { lineCounter: this.lines, prettyErrors: false });
    const [error] = this.document.errors;
    if (error) {
      this.error = { message: error.message.split('\n')[0]!, place: this.placeOf(error.pos[0]) };
      this.value = undefined;
    } else this.value = this.document.toJS();
  }

  private placeOf(offset: number): Place {
    const { line, col } = this.lines.linePos(offset);
    return { line, column: col };
  }

  /** The place of the value at `path`, or of its key when the last step is a key of a mapping; else the nearest place found on the way. */
  at(path: DocumentPath): Place | undefined {
    let node: unknown = this.document.contents;
    let place = isNode(node) && node.range ? this.placeOf(node.range[0]) : undefined;
    for (const step of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(step));
        if (!pair) return place;
        const key = pair.key as Node;
        if (key.range) place = this.placeOf(key.range[0]);
        node = pair.value;
      } else if (isSeq(node) && typeof step === 'number') {
        const item = node.items[step];
        if (!isNode(item)) return place;
        if (item.range) place = this.placeOf(item.range[0]);
        node = item;
      } else return place;
    }
    return place;
  }
}

/** `/match/command/1` of a schema error as a path: numbers where they index a list. */
export function pathOf(pointer: string): (string | number)[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}
