import { chainHash, GENESIS_HASH, type CanonicalTexts, type HashedContent } from './event-hash.js';

/** An event of a session that still has to be placed in the session's chain. */
export interface Unchained extends HashedContent {
  /** JetStream stream sequence: the order events of one stream arrived in. */
  streamSequence: string | null;
  /** canonicalTexts(this event), made once when it was received: the costly part of its hash, and what is stored. */
  canonical: CanonicalTexts;
}

export interface ChainHead {
  chainSeq: number;
  hash: string;
}

export interface Chained<T> {
  event: T;
  chainSeq: number;
  prevHash: string;
  hash: string;
}

/**
 * The order a batch's new events of one session join its chain: by time the event happened, then by
 * stream sequence, then by id, so that any replica computes the same chain from the same batch.
 */
export function chainOrder(a: Unchained, b: Unchained): number {
  const t = a.occurredAt.getTime() - b.occurredAt.getTime();
  if (t !== 0) return t;
  const sa = a.streamSequence === null ? -1 : Number(a.streamSequence);
  const sb = b.streamSequence === null ? -1 : Number(b.streamSequence);
  if (sa !== sb) return sa - sb;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Links new events to the chains of their sessions. `heads` holds the last link of each session stored
 * so far (absent: the session's chain is empty). Returns the chained events and the new heads.
 */
export function linkEvents<T extends Unchained>(events: T[], heads: Map<string, ChainHead>): { chained: Chained<T>[]; heads: Map<string, ChainHead> } {
  const bySession = new Map<string, T[]>();
  for (const event of events) {
    const list = bySession.get(event.sessionId);
    if (list) list.push(event);
    else bySession.set(event.sessionId, [event]);
  }
  const chained: Chained<T>[] = [];
  const next = new Map<string, ChainHead>();
  for (const [sessionId, list] of bySession) {
    list.sort(chainOrder);
    let head = heads.get(sessionId) ?? { chainSeq: 0, hash: GENESIS_HASH };
    for (const event of list) {
      const hash = chainHash(head.hash, event, event.canonical);
      chained.push({ event, chainSeq: head.chainSeq + 1, prevHash: head.hash, hash });
      head = { chainSeq: head.chainSeq + 1, hash };
    }
    next.set(sessionId, head);
  }
  return { chained, heads: next };
}
