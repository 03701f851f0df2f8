import { ReviewCache } from '../cache/review-cache.js';
import { ReviewSession } from './review-session.js';

export interface SessionAddress {
  agentId: string;
  sessionId: string;
}

/**
 * The sessions this replica reviews, bounded in number and forgotten after they go idle. Sessions are
 * partitioned across replicas by the bus, so each replica holds only its own.
 */
export class ReviewSessionStore {
  private readonly sessions: ReviewCache<ReviewSession>;

  constructor(
    maxSessions: number,
    idleMs: number,
    private readonly historySize: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.sessions = new ReviewCache(maxSessions, idleMs, clock);
  }

  /** The session, created on first sight; every access keeps it alive for another idle period. */
  open(address: SessionAddress): ReviewSession {
    const key = `${address.agentId}\u0000${address.sessionId}`;
    let session = this.sessions.peek(key);
    if (!session) session = new ReviewSession(address.agentId, address.sessionId, this.clock(), this.historySize);
    this.sessions.set(key, session);
    return session;
  }

  /** Holds `session` (one rebuilt from the session's stored messages) in place of what this replica had of it. */
  adopt(address: SessionAddress, session: ReviewSession): void {
    this.sessions.set(`${address.agentId}\u0000${address.sessionId}`, session);
  }

  find(address: SessionAddress): ReviewSession | undefined {
    return this.sessions.peek(`${address.agentId}\u0000${address.sessionId}`);
  }

  close(address: SessionAddress): void {
    this.sessions.delete(`${address.agentId}\u0000${address.sessionId}`);
  }

  get size(): number {
    return this.sessions.size;
  }
}
