import type { Response } from 'express';
import { roleAllows, type Operator } from '@warden/operator-auth';
import type { Logger, MetricsRegistry } from '@warden/observability';
import { buildCausalGraph } from '../domain/causal-graph.js';
import type { BoardChange, SessionBoard } from '../domain/session-board.js';
import { agentRow } from '../views/agents-view.js';
import { approvalCard } from '../views/approvals-view.js';
import { sessionFragments } from '../views/session-view.js';
import { sessionRow } from '../views/sessions-view.js';

export type LivePage = 'sessions' | 'approvals' | 'agents' | 'session';

interface Client {
  res: Response;
  page: LivePage;
  operator: Operator;
  /** A drill-down follows one session only (FR-11.10: scoped to the session at mount time). */
  key?: string;
  dirty: Set<string>;
  agents: boolean;
  approvals: boolean;
  count: number;
}

const HEARTBEAT_MS = 15_000;
/** Changes kept for streams that start after their page was rendered; one that missed more gets its page's parts again. */
const REMEMBERED_CHANGES = 1_000;

/**
 * Pushes what changed to open pages over Server-Sent Events, batched every CONSOLE_LIVE_INTERVAL_MS:
 * rows of the sessions list, approval cards, agents, or a drill-down's fragments. Rendered here, by the
 * same functions as the pages, so the browser only swaps HTML in.
 */
export class LiveHub {
  private readonly clients = new Set<Client>();
  private readonly timer: NodeJS.Timeout;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  /** The latest changes with the board's version after each. */
  private readonly recent: { version: number; change: BoardChange }[] = [];

  constructor(
    private readonly board: SessionBoard,
    intervalMs: number,
    private readonly log: Logger,
    metrics: MetricsRegistry,
  ) {
    const clients = this.clients;
    metrics.gauge({ name: 'warden_console_live_clients', help: 'Open live streams (pages).', collect() {
      this.set(clients.size);
    } });
    this.unsubscribe = board.onChange((change) => {
      this.recent.push({ version: board.version, change });
      if (this.recent.length > REMEMBERED_CHANGES) this.recent.shift();
      for (const client of this.clients) mark(client, change);
    });
    this.timer = setInterval(() => this.flush(), intervalMs);
    this.heartbeat = setInterval(() => {
      for (const client of this.clients) client.res.write(': keep-alive\n\n');
    }, HEARTBEAT_MS);
    this.timer.unref();
    this.heartbeat.unref();
  }

  /**
   * A page's stream. `since`: the board's version when the page was rendered; what changed between the render and
   * this stream's start (an action held a moment after the approvals page loaded) goes out with the first batch.
   */
  connect(res: Response, page: LivePage, operator: Operator, key?: string, since?: number): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    const client: Client = { res, page, operator, ...(key ? { key } : {}), dirty: new Set(), agents: false, approvals: false, count: -1 };
    if (since !== undefined && since < this.board.version) this.catchUp(client, since);
    this.clients.add(client);
    this.send(client, 'hello', { page, ...(key ? { key } : {}) });
    this.sendCount(client);
    res.on('close', () => this.clients.delete(client));
  }

  /** Marks what changed after `since` for the client's first batch; all of its page when more changed than is kept. */
  private catchUp(client: Client, since: number): void {
    const missed = this.recent.filter((r) => r.version > since);
    if (missed.length >= this.board.version - since) {
      for (const { change } of missed) mark(client, change);
      return;
    }
    client.approvals = true;
    client.agents = true;
    if (client.key) client.dirty.add(client.key);
    else for (const summary of this.board.list()) client.dirty.add(summary.key);
  }

  close(): void {
    clearInterval(this.timer);
    clearInterval(this.heartbeat);
    this.unsubscribe();
    for (const client of this.clients) client.res.end();
    this.clients.clear();
  }

  private flush(): void {
    for (const client of this.clients) {
      try {
        this.flushClient(client);
      } catch (error) {
        this.log.warn({ err: error }, 'live update not sent');
      }
    }
  }

  private flushClient(client: Client): void {
    const canDecide = roleAllows(client.operator.role, 'decide');
    if (client.approvals) {
      client.approvals = false;
      this.sendCount(client);
      if (client.page === 'approvals') this.send(client, 'approvals', { cards: this.board.approvals().map((a) => ({ id: `approval-${a.key}`, html: approvalCard(a, canDecide).text })) });
    }
    if (client.agents && client.page === 'agents') {
      client.agents = false;
      const canAdminister = roleAllows(client.operator.role, 'administer');
      this.send(client, 'agents', { rows: this.board.agents().map((a) => ({ id: `agent-${a.agent_id}`, html: agentRow(a, canAdminister).text })) });
    }
    if (!client.dirty.size) return;
    const keys = [...client.dirty];
    client.dirty.clear();
    if (client.page === 'sessions') {
      const rows = keys.flatMap((key) => {
        const summary = this.board.summary(key);
        return summary ? [{ id: `row-${key}`, last: summary.last_at, html: sessionRow(summary).text }] : [];
      });
      if (rows.length) this.send(client, 'rows', { rows });
    } else if (client.page === 'session' && client.key) {
      const summary = this.board.summary(client.key);
      if (!summary) return;
      const fragments = sessionFragments(summary, buildCausalGraph(this.board.events(client.key)), this.board.approval(client.key), canDecide);
      this.send(client, 'session', { key: client.key, fragments: Object.entries(fragments).map(([id, html]) => ({ id, html: html.text })) });
    }
  }

  private sendCount(client: Client): void {
    const count = this.board.approvals().length;
    if (count === client.count) return;
    client.count = count;
    this.send(client, 'count', { approvals: count });
  }

  private send(client: Client, event: string, data: unknown): void {
    client.res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }
}

/** What a change makes a client send in its next batch. */
function mark(client: Client, change: BoardChange): void {
  if (change.kind === 'agent') client.agents = true;
  else if (!client.key || client.key === change.key) client.dirty.add(change.key);
  if (change.kind === 'session') client.approvals = true;
}
