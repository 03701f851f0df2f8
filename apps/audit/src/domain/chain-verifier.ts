import { chainHash, GENESIS_HASH, type HashedContent } from './event-hash.js';

/** One link of a session's chain as stored: an event, or the tombstone retention left in its place. */
export type ChainEntry =
  | { kind: 'event'; chainSeq: number; prevHash: string; hash: string; content: HashedContent }
  | { kind: 'tombstone'; chainSeq: number; prevHash: string; hash: string; eventId: string };

export type ChainProblem = 'altered' | 'broken_link' | 'missing';

/** The first link of a session's chain that does not hold, and why. */
export interface BrokenLink {
  sessionId: string;
  chainSeq: number;
  eventId: string | null;
  problem: ChainProblem;
  detail: string;
}

export interface ChainHeadRecord {
  chainSeq: number;
  hash: string;
}

/**
 * Walks a session's chain in order and returns its first broken link, or null when it holds:
 * `altered` - the event's content no longer gives its hash; `broken_link` - the event does not name
 * the hash of the link before it (a link was replaced or reordered); `missing` - a link is gone without
 * a retention tombstone (deleted by hand), including the newest ones (the head remembers them).
 */
export class ChainVerifier {
  private expected = 1;
  private previous = GENESIS_HASH;
  private broken: BrokenLink | null = null;

  constructor(readonly sessionId: string) {}

  /** Feed the entries in chain order; stops looking after the first problem. */
  add(entry: ChainEntry): void {
    if (this.broken) return;
    const eventId = entry.kind === 'event' ? entry.content.id : entry.eventId;
    if (entry.chainSeq !== this.expected) {
      this.fail(this.expected, null, 'missing', `link ${this.expected} is missing (the next stored link is ${entry.chainSeq})`);
      return;
    }
    if (entry.prevHash !== this.previous) {
      this.fail(entry.chainSeq, eventId, 'broken_link', `event names previous hash ${entry.prevHash.slice(0, 12)}… but link ${entry.chainSeq - 1} has ${this.previous.slice(0, 12)}…`);
      return;
    }
    if (entry.kind === 'event') {
      const recomputed = chainHash(entry.prevHash, entry.content);
      if (recomputed !== entry.hash) {
        this.fail(entry.chainSeq, eventId, 'altered', `stored hash ${entry.hash.slice(0, 12)}… but the content hashes to ${recomputed.slice(0, 12)}…`);
        return;
      }
    }
    this.previous = entry.hash;
    this.expected++;
  }

  /** Ends the walk: the last link must be the head the writer recorded. */
  finish(head: ChainHeadRecord | null): BrokenLink | null {
    if (this.broken || !head) return this.broken;
    const last = this.expected - 1;
    if (head.chainSeq !== last) {
      this.fail(last + 1, null, 'missing', `the chain ends at link ${last} but ${head.chainSeq} links were written`);
    } else if (head.hash !== this.previous) {
      this.fail(last, null, 'broken_link', `the last link's hash differs from the one recorded when it was written`);
    }
    return this.broken;
  }

  get checked(): number {
    return this.expected - 1;
  }

  private fail(chainSeq: number, eventId: string | null, problem: ChainProblem, detail: string): void {
    this.broken = { sessionId: this.sessionId, chainSeq, eventId, problem, detail };
  }
}
