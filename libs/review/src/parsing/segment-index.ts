import { DerivedValue } from '../derived-value.js';
import { commandName } from './command-facts.js';
import type { ShellSegment } from './shell-command.js';

/**
 * The simple commands of a line by the program they run, built once per line however many rules and
 * analyses ask. Most rules care about a few programs (rm, git, curl …) and a long line mostly runs
 * others: looking the names up here spares each rule a walk over every segment.
 *
 * Names are `commandName`s: the program after the wrappers (sudo, env, timeout …) were looked through, so
 * a command reached through sudo, xargs, `bash -c` or ssh is listed under its own name like any other.
 */
interface SegmentIndex {
  /** The command name of each segment, in line order. */
  names: string[];
  /** The names that occur, each once. */
  distinct: string[];
  /** Positions of the segments of each name, in line order. */
  positions: Map<string, number[]>;
  /** The segments of each name asked for so far, in line order. */
  segments: Map<string, ShellSegment[]>;
}

/** Anything that answers whether a command name is one of its own: a Set, or a record's own keys (`namesIn`). */
export interface CommandNames {
  has(name: string): boolean;
}

const NONE: readonly never[] = Object.freeze([]);
const segmentIndex = new DerivedValue((segments: readonly ShellSegment[]): SegmentIndex => {
  const names: string[] = [];
  const distinct: string[] = [];
  const positions = new Map<string, number[]>();
  for (let i = 0; i < segments.length; i++) {
    const name = commandName(segments[i]!);
    names.push(name);
    const list = positions.get(name);
    if (list) list.push(i);
    else {
      positions.set(name, [i]);
      distinct.push(name);
    }
  }
  return { names, distinct, positions, segments: new Map() };
});

/** The command name of every segment, in line order (what `commandName` gives for each). */
export function commandNames(segments: readonly ShellSegment[]): readonly string[] {
  return segments.length ? segmentIndex.of(segments).names : NONE;
}

/** The names of `names` the line runs; the line's distinct names are few, so each is asked once, not once per segment. */
function wantedNames(index: SegmentIndex, names: CommandNames): string[] | undefined {
  let wanted: string[] | undefined;
  for (const name of index.distinct) if (names.has(name)) (wanted ??= []).push(name);
  return wanted;
}

/** Positions (in line order) of the segments whose command name is one of `names`. */
export function positionsRunning(segments: readonly ShellSegment[], names: CommandNames): readonly number[] {
  if (!segments.length) return NONE;
  const index = segmentIndex.of(segments);
  const wanted = wantedNames(index, names);
  if (!wanted) return NONE;
  if (wanted.length === 1) return index.positions.get(wanted[0]!)!;
  // Several programs: one pass over the line keeps their segments in order.
  const set = new Set(wanted);
  const found: number[] = [];
  for (let i = 0; i < index.names.length; i++) if (set.has(index.names[i]!)) found.push(i);
  return found;
}

/** The segments whose command name is one of `names`, in line order. */
export function segmentsRunning(segments: readonly ShellSegment[], names: CommandNames): readonly ShellSegment[] {
  const positions = positionsRunning(segments, names);
  if (!positions.length) return NONE;
  const index = segmentIndex.of(segments);
  const name = index.names[positions[0]!]!;
  if (positions !== index.positions.get(name)) return positions.map((i) => segments[i]!);
  // One program, the usual case: its segments are listed once for every rule that asks.
  let found = index.segments.get(name);
  if (!found) {
    found = positions.map((i) => segments[i]!);
    index.segments.set(name, found);
  }
  return found;
}

/** Whether some segment runs one of `names`. */
export function runsAny(segments: readonly ShellSegment[], names: CommandNames): boolean {
  if (!segments.length) return false;
  for (const name of segmentIndex.of(segments).distinct) if (names.has(name)) return true;
  return false;
}

/** The names a record has an entry of its own for: exactly those for which `ownEntry(record, name)` finds something. */
export function namesIn(record: object): CommandNames {
  return { has: (name) => Object.hasOwn(record, name) };
}
