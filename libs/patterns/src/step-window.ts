import { PHASES, type Phase } from '@warden/contracts';
import type { Step, StepOp } from './action-step.js';
import { shared } from './shared-strings.js';
import type { ContentMark } from './signals.js';

/**
 * A session's window of steps in proposal order, packed: per step three numbers in one array of doubles
 * (time, the tokens with the tool's number, the signature with the small fields as bits) and four
 * references in one array (the id or whatever else the step carries, paths, text, command), the strings
 * shared between steps and sessions.
 * Ten thousand sessions of 64 steps each would otherwise hold 640,000 objects with their property stores,
 * boxed numbers and one-path arrays — most of a session's memory. The detectors read plain steps, made
 * when they are asked for.
 */
export class StepWindow {
  private numbers: number[] = [];
  private references: Reference[] = [];
  private rows = 0;
  private capacity = 0;
  /** Counts the changes: steps read since the last one are still the window's steps. */
  private version = 0;

  /** `rows` is how many steps the window holds at most, between two trims: it never reserves more. */
  constructor(private readonly maxRows: number) {}

  static of(steps: readonly Step[], maxRows: number): StepWindow {
    const window = new StepWindow(maxRows);
    window.reserve(steps.length);
    for (const step of steps) window.write(window.rows++, step);
    return window;
  }

  get length(): number {
    return this.rows;
  }

  /** The row of the step with this action id, or -1. */
  indexOf(id: string): number {
    const references = this.references;
    for (let row = 0; row < this.rows; row++) {
      const idOrRest = references[row * REFERENCES + ID_OR_REST];
      if (idOrRest === id || (typeof idOrRest === 'object' && idOrRest !== null && (idOrRest as Partial<Step>).id === id)) return row;
    }
    return -1;
  }

  /** When the step of this row was proposed (or reported, if its outcome came first). */
  timeAt(row: number): number {
    return this.numbers[row * NUMBERS]!;
  }

  step(row: number): Step {
    return read(this.numbers, this.references, row);
  }

  /**
   * All the steps, in order. The detectors read them, then the snapshot stored after the same event: the
   * steps last read are given again while their window has not changed (one window's, not every session's).
   * They are to be read, not changed.
   */
  steps(): readonly Step[] {
    if (lastRead?.window === this && lastRead.version === this.version) return lastRead.steps;
    const steps = new Array<Step>(this.rows);
    for (let row = 0; row < this.rows; row++) steps[row] = read(this.numbers, this.references, row);
    lastRead = { window: this, version: this.version, steps };
    return steps;
  }

  /** Adds a step where its proposal belongs: after every step proposed no later than it. */
  insert(step: Step): void {
    this.version++;
    let row = this.rows;
    while (row > 0 && this.timeAt(row - 1) > step.at) row--;
    this.reserve(this.rows + 1);
    this.move(row, row + 1, this.rows - row);
    this.rows++;
    this.write(row, step);
  }

  replace(row: number, step: Step): void {
    this.version++;
    this.write(row, step);
  }

  remove(row: number): void {
    this.version++;
    this.move(row + 1, row, this.rows - row - 1);
    this.clearRows(--this.rows, 1);
  }

  /** Drops the `count` oldest steps. */
  dropOldest(count: number): void {
    this.version++;
    const kept = this.rows - count;
    this.move(count, 0, kept);
    this.clearRows(kept, count);
    this.rows = kept;
  }

  clear(): void {
    this.version++;
    this.numbers = [];
    this.references = [];
    this.rows = this.capacity = 0;
  }

  /** Room for `rows` steps: doubled as it fills, never past the window's bound unless more are held. */
  private reserve(rows: number): void {
    if (rows <= this.capacity) return;
    // Doubled, but straight to the bound once doubling nears it (64 rows then 65 would be two copies).
    const doubled = Math.max(8, this.capacity * 2);
    const capacity = Math.max(rows, doubled * 1.25 >= this.maxRows ? this.maxRows : doubled);
    // Created at their full length and filled at once: the numbers stay unboxed doubles, no spare room.
    const numbers = new Array<number>(capacity * NUMBERS).fill(NaN);
    const references = new Array<Reference>(capacity * REFERENCES).fill(undefined);
    for (let i = 0; i < this.rows * NUMBERS; i++) numbers[i] = this.numbers[i]!;
    for (let i = 0; i < this.rows * REFERENCES; i++) references[i] = this.references[i];
    this.numbers = numbers;
    this.references = references;
    this.capacity = capacity;
  }

  /** Moves `count` rows from `from` to `to` (overlapping ranges allowed). */
  private move(from: number, to: number, count: number): void {
    if (count <= 0 || from === to) return;
    const { numbers, references } = this;
    const forward = to < from;
    for (let k = 0; k < count; k++) {
      const i = forward ? k : count - 1 - k;
      for (let f = 0; f < NUMBERS; f++) numbers[(to + i) * NUMBERS + f] = numbers[(from + i) * NUMBERS + f]!;
      for (let f = 0; f < REFERENCES; f++) references[(to + i) * REFERENCES + f] = references[(from + i) * REFERENCES + f];
    }
  }

  /** Empties rows so that the strings of dropped steps can be collected. */
  private clearRows(row: number, count: number): void {
    this.numbers.fill(NaN, row * NUMBERS, (row + count) * NUMBERS);
    this.references.fill(undefined, row * REFERENCES, (row + count) * REFERENCES);
  }

  private write(row: number, step: Step): void {
    const n = row * NUMBERS;
    const r = row * REFERENCES;
    const rest: Partial<Step> = {};
    let restKept = false;
    const keep = <K extends keyof Step>(key: K) => {
      const value = step[key];
      // Shared too: the same failure is reported again and again, with the same texts.
      rest[key] = (typeof value === 'string' ? shared(value) : value) as Step[K];
      restKept = true;
    };
    this.numbers[n + AT] = step.at;
    const sig = packedSignature(step.sig);
    if (step.sig !== undefined && sig === undefined) keep('sig');
    // The tokens (plus one: 0 is none) above the tool's number, both exact in one double.
    const tokens = step.tokens;
    const whole = Number.isInteger(tokens) && tokens! >= 0 && tokens! < MAX_TOKENS;
    if (tokens !== undefined && !whole) keep('tokens');
    const tool = typeof step.tool === 'string' ? toolNumber(step.tool) : 0;
    if (step.tool !== undefined && !tool) keep('tool');
    this.numbers[n + TOKENS_AND_TOOL] = (whole ? tokens! + 1 : 0) * TOOLS_RANGE + tool;
    let bits = 0;
    for (const [key, field] of CODED) {
      const value = step[key];
      if (value === undefined) continue;
      const code = codeOf(field.values, value);
      if (code > 0) bits |= code << field.shift;
      else keep(key);
    }
    const files = step.files_touched;
    if (files !== undefined) {
      if (Number.isInteger(files) && files >= 0 && files < MAX_FILES) bits |= (files + 1) << FILES_SHIFT;
      else keep('files_touched');
    }
    // The signature (plus one: 0 is none) above the bits, both exact in one double.
    this.numbers[n + CODES] = (sig === undefined ? 0 : sig + 1) * BITS_RANGE + bits;
    this.numbers[n + TURN] = step.turn ?? 0;
    // One path, by far the most common, is kept as the string: the array is made when the step is read.
    const paths = step.paths;
    this.references[r + PATHS] = paths?.length === 1 ? shared(paths[0]) : paths?.every((path) => shared(path) === path) ? paths : paths?.map(shared);
    this.references[r + TEXT] = shared(step.text);
    this.references[r + COMMAND] = shared(step.cmd);
    for (const key of RARE) if (step[key] !== undefined) keep(key);
    // The id, or the rest with the id in it.
    if (restKept) rest.id = step.id;
    this.references[r + ID_OR_REST] = restKept ? rest : step.id;
  }
}

let lastRead: { window: StepWindow; version: number; steps: readonly Step[] } | undefined;

/**
 * The tools' numbers (1-based: 0 is none), given once for the life of the process: tool names are few
 * (an agent's own and its MCP servers'), and a number in a double a step holds anyway saves every step
 * its reference. Bounded: a tool beyond the last number is kept in the rest.
 */
const toolNumbers = new Map<string, number>();
const toolNames: string[] = [];

function toolNumber(tool: string): number {
  let number = toolNumbers.get(tool);
  if (number === undefined && toolNames.length < TOOLS_RANGE - 1) {
    toolNames.push(shared(tool));
    toolNumbers.set(tool, (number = toolNames.length));
  }
  return number ?? 0;
}

type Reference = string | readonly string[] | Partial<Step> | undefined;

// The numbers of a row.
const NUMBERS = 4;
const AT = 0;
/** The tokens plus one (0: none) times TOOLS_RANGE, plus the tool's number (0: none, or kept in the rest). */
const TOKENS_AND_TOOL = 1;
/** The signature's number plus one (0: none) times BITS_RANGE, plus the small fields' bits. */
const CODES = 2;
/** The model response's key (0: none). */
const TURN = 3;
/** Tool numbers take 10 bits: with 42 for the tokens (plus one) above them, 52, exact in a double. */
const TOOLS_RANGE = 2 ** 10;
const MAX_TOKENS = 2 ** 42 - 1;
// The references of a row.
const REFERENCES = 4;
/**
 * The id; or, when the step has a rest (fields seldom set: errors, ports, alignment, cost, output, a failure shown; and
 * any value the numbers cannot say, as given), the rest with the id in it.
 */
const ID_OR_REST = 0;
const PATHS = 1;
const TEXT = 2;
const COMMAND = 3;

/** Fields kept as they are, in the rest: most steps have none of them. */
const RARE = ['check', 'err', 'err_text', 'done', 'ports', 'out', 'cost_usd', 'alignment', 'shows_failure', 'destroy_prompt'] as const;

const OPS: readonly StepOp[] = ['read', 'write', 'search', 'exec', 'poll', 'other'];
const STATUSES: readonly NonNullable<Step['status']>[] = ['success', 'error'];
const BACKGROUND: readonly NonNullable<Step['bg']>[] = [1, -1];
const BLOCKED: readonly true[] = [true];
const MARKS: readonly (readonly ContentMark[])[] = [Object.freeze(['bypass']), Object.freeze(['secret']), Object.freeze(['bypass', 'secret'])];
const PHASE_CODES: readonly Phase[] = PHASES;

/** Small fields as codes (1-based: 0 is absent) in the bits: their values, first bit and width. */
const OP = { values: OPS, shift: 0, width: 3 };
const STATUS = { values: STATUSES, shift: 3, width: 2 };
const BG = { values: BACKGROUND, shift: 5, width: 2 };
const BLOCK = { values: BLOCKED, shift: 7, width: 1 };
const MARK = { values: MARKS, shift: 8, width: 2 };
const PHASE = { values: PHASE_CODES, shift: 10, width: 3 };
const CODED = [
  ['op', OP],
  ['status', STATUS],
  ['bg', BG],
  ['blocked', BLOCK],
  ['marks', MARK],
  ['phase', PHASE],
] as const satisfies readonly (readonly [keyof Step, { values: readonly unknown[]; shift: number; width: number }])[];
const CODED_KEYS = CODED.map(([key]) => key);
/** Files touched, plus one (0 is absent), in the 7 bits above the codes; more files are kept in the rest. */
const FILES_SHIFT = 13;
const MAX_FILES = 2 ** 7 - 1;
/** The bits take 20 bits: with a signature's 33 (a 32-bit hash plus one) above them, 53, exact in a double. */
const BITS_RANGE = 2 ** 20;

function codeOf(values: readonly unknown[], value: unknown): number {
  if (Array.isArray(value)) return values.findIndex((v) => Array.isArray(v) && v.length === value.length && v.every((x, i) => x === value[i])) + 1;
  return values.indexOf(value) + 1;
}

const decode = <T>(field: { values: readonly T[]; shift: number; width: number }, bits: number): T | undefined => {
  const code = (bits >>> field.shift) & ((1 << field.width) - 1);
  return code ? field.values[code - 1] : undefined;
};

/** A signature as `fingerprint` writes it (a 32-bit hash in base 36) is kept as its number. */
function packedSignature(sig: string | undefined): number | undefined {
  if (typeof sig !== 'string' || !/^[0-9a-z]{1,7}$/.test(sig)) return undefined;
  const value = Number.parseInt(sig, 36);
  return value <= 0xffffffff && value.toString(36) === sig ? value : undefined;
}

/** A plain step of one shape whatever it carries (absent fields are undefined): the detectors read it fast. */
function read(numbers: readonly number[], references: readonly Reference[], row: number): Step {
  const n = row * NUMBERS;
  const r = row * REFERENCES;
  const codes = numbers[n + CODES]!;
  const sig = Math.floor(codes / BITS_RANGE);
  const bits = codes - sig * BITS_RANGE;
  const tokensAndTool = numbers[n + TOKENS_AND_TOOL]!;
  const tokens = Math.floor(tokensAndTool / TOOLS_RANGE);
  const tool = tokensAndTool - tokens * TOOLS_RANGE;
  const files = bits >>> FILES_SHIFT;
  const paths = references[r + PATHS] as string | readonly string[] | undefined;
  const idOrRest = references[r + ID_OR_REST] as string | Partial<Step>;
  const rest = typeof idOrRest === 'object' && idOrRest !== null ? idOrRest : undefined;
  const step: Step = {
    id: rest ? rest.id! : (idOrRest as string),
    at: numbers[n + AT]!,
    tool: tool ? toolNames[tool - 1] : rest?.tool,
    op: decode(OP, bits),
    sig: sig ? (sig - 1).toString(36) : rest?.sig,
    cmd: references[r + COMMAND] as string | undefined,
    check: rest?.check,
    paths: typeof paths === 'string' ? [paths] : (paths as string[] | undefined),
    text: references[r + TEXT] as string | undefined,
    marks: decode(MARK, bits) as ContentMark[] | undefined,
    ports: rest?.ports,
    bg: decode(BG, bits),
    phase: decode(PHASE, bits),
    status: decode(STATUS, bits),
    err: rest?.err,
    err_text: rest?.err_text,
    done: rest?.done,
    out: rest?.out,
    files_touched: files ? files - 1 : undefined,
    tokens: tokens ? tokens - 1 : rest?.tokens,
    cost_usd: rest?.cost_usd,
    alignment: rest?.alignment,
    shows_failure: rest?.shows_failure,
    destroy_prompt: rest?.destroy_prompt,
    blocked: decode(BLOCK, bits),
    turn: numbers[n + TURN] || undefined,
  };
  // What the bits could not say was kept as given.
  if (rest) for (const key of CODED_KEYS) if (rest[key] !== undefined) (step as unknown as Record<string, unknown>)[key] = rest[key];
  if (rest?.files_touched !== undefined) step.files_touched = rest.files_touched;
  return step;
}

