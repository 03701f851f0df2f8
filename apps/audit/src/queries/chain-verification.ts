import type { DataSource } from 'typeorm';
import { ChainVerifier, type BrokenLink, type ChainEntry } from '../domain/chain-verifier.js';

export interface VerifyReport {
  ok: boolean;
  sessions_checked: number;
  links_checked: number;
  /** The first broken link of each broken session (at most 100), first session first. */
  broken: BrokenLink[];
  first_broken: BrokenLink | null;
}

const PAGE = 1_000;
const SESSION_PAGE = 200;
const MAX_REPORTED = 100;

interface LinkRow {
  kind: 'event' | 'tombstone';
  chain_seq: string;
  prev_hash: string;
  hash: string;
  id: string;
  type: string;
  version: number;
  channel: string;
  session_id: string;
  agent_id: string;
  trace_id: string;
  causation_id: string | null;
  occurred_at: Date;
  payload: unknown;
  control: unknown;
}

/**
 * Verifies the hash chains as stored: one session, or every session that has a chain head, reading
 * events and retention tombstones in chain order a page at a time (memory stays bounded).
 */
export class ChainVerification {
  constructor(private readonly dataSource: DataSource) {}

  async verify(sessionId?: string): Promise<VerifyReport> {
    const report: VerifyReport = { ok: true, sessions_checked: 0, links_checked: 0, broken: [], first_broken: null };
    const check = async (session: string, head: { chainSeq: number; hash: string } | null) => {
      const verifier = new ChainVerifier(session);
      let after = 0;
      for (;;) {
        const rows = (await this.dataSource.query(
          `SELECT * FROM (
             SELECT 'event' AS kind, chain_seq, prev_hash, hash, id, type, version, channel, session_id, agent_id, trace_id, causation_id, occurred_at, payload, control
             FROM audit_event WHERE session_id = $1 AND chain_seq > $2
             UNION ALL
             SELECT 'tombstone', chain_seq, prev_hash, hash, event_id, type, 0, '', session_id, '', '', NULL, occurred_at, NULL, NULL
             FROM audit_chain_tombstone WHERE session_id = $1 AND chain_seq > $2
           ) links ORDER BY chain_seq, kind LIMIT $3`,
          [session, after, PAGE],
        )) as LinkRow[];
        for (const r of rows) verifier.add(toEntry(r));
        if (rows.length < PAGE) break;
        after = Number(rows[rows.length - 1]!.chain_seq);
      }
      const broken = verifier.finish(head);
      report.sessions_checked++;
      report.links_checked += verifier.checked;
      if (broken) {
        report.ok = false;
        report.first_broken ??= broken;
        if (report.broken.length < MAX_REPORTED) report.broken.push(broken);
      }
    };
    if (sessionId) {
      const [head] = (await this.dataSource.query(`SELECT chain_seq, hash FROM audit_chain_head WHERE session_id = $1`, [sessionId])) as { chain_seq: string; hash: string }[];
      await check(sessionId, head ? { chainSeq: Number(head.chain_seq), hash: head.hash } : null);
      return report;
    }
    let after = '';
    for (;;) {
      const heads = (await this.dataSource.query(`SELECT session_id, chain_seq, hash FROM audit_chain_head WHERE session_id > $1 ORDER BY session_id LIMIT $2`, [
        after,
        SESSION_PAGE,
      ])) as { session_id: string; chain_seq: string; hash: string }[];
      for (const h of heads) await check(h.session_id, { chainSeq: Number(h.chain_seq), hash: h.hash });
      if (heads.length < SESSION_PAGE) break;
      after = heads[heads.length - 1]!.session_id;
    }
    return report;
  }
}

function toEntry(r: LinkRow): ChainEntry {
  const chainSeq = Number(r.chain_seq);
  if (r.kind === 'tombstone') return { kind: 'tombstone', chainSeq, prevHash: r.prev_hash, hash: r.hash, eventId: r.id };
  return {
    kind: 'event',
    chainSeq,
    prevHash: r.prev_hash,
    hash: r.hash,
    content: {
      id: r.id,
      type: r.type,
      version: r.version,
      channel: r.channel,
      sessionId: r.session_id,
      agentId: r.agent_id,
      traceId: r.trace_id,
      causationId: r.causation_id,
      occurredAt: r.occurred_at,
      payload: r.payload,
      control: r.control,
    },
  };
}
