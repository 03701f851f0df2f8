import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Msg, Subscription } from '@nats-io/transport-node';
import { createMessage, OPERATOR_ID_HEADER, parseMessage, requestSubject, type MessageOf, type PayloadOf } from '@warden/contracts';
import { BusConnection } from '@warden/messaging';
import { OperatorAuthenticator, roleAllows } from '@warden/operator-auth';
import { LOGGER, type Logger } from '@warden/observability';
import { Inject } from '@nestjs/common';
import { InvalidQueryError, parseQueryRequest } from '../domain/query-request.js';
import { AuditQueryService } from './audit-query-service.js';

/** Replies above this size are refused with a reason (NATS' default max payload is 1 MiB). */
const MAX_REPLY_BYTES = 900 * 1024;
const encoder = new TextEncoder();

/**
 * Answers audit.query requests on `warden.query.audit` (core request/reply, queue group `audit`: one
 * replica answers) with audit.result, from the same query layer as the HTTP API. A request that is not
 * a valid audit.query gets `{"error": "..."}`. Like the HTTP API it needs an operator: the bearer token
 * in the request's `Authorization` header (a viewer; `retention_run` an admin), else the result's
 * error is `unauthorized: <reason>` or `forbidden: …` and nothing runs.
 */
@Injectable()
export class AuditQueryResponder implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription?: Subscription;

  constructor(
    private readonly bus: BusConnection,
    private readonly queries: AuditQueryService,
    private readonly authenticator: OperatorAuthenticator,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.bus.nc.subscribe(requestSubject('audit_query'), {
      queue: 'audit',
      callback: (error, msg) => {
        if (!error) void this.answer(msg);
      },
    });
  }

  onApplicationShutdown(): void {
    this.subscription?.unsubscribe();
  }

  private async answer(msg: Msg): Promise<void> {
    if (!msg.reply) return;
    const parsed = parseMessage(msg.data);
    if (!parsed.ok || parsed.message.type !== 'audit.query') {
      msg.respond(encoder.encode(JSON.stringify({ error: parsed.ok ? `expected an audit.query, got ${parsed.message.type}` : `${parsed.reason}: ${parsed.detail}` })));
      return;
    }
    const request = parsed.message as MessageOf<'audit.query'>;
    const { query, params, limit, cursor } = request.payload;
    let payload: PayloadOf<'audit.result'>;
    const auth = await this.authenticator.authenticateBearer(msg.headers?.get('Authorization') || undefined, msg.headers?.get(OPERATOR_ID_HEADER) || undefined);
    const needed = query === 'retention_run' ? 'administer' : 'read';
    try {
      if (!auth.ok) payload = { query, rows: [], error: `${auth.status === 401 ? 'unauthorized' : 'unavailable'}: ${auth.reason} (${auth.detail})` };
      else if (!roleAllows(auth.operator.role, needed)) payload = { query, rows: [], error: `forbidden: operator ${auth.operator.id} is a ${auth.operator.role}; ${query} needs ${needed}` };
      else payload = { query, ...(await this.queries.run(parseQueryRequest(query, params, limit, cursor))) };
    } catch (error) {
      if (!(error instanceof InvalidQueryError)) this.log.error({ err: error, query }, 'audit query failed');
      payload = { query, rows: [], error: error instanceof InvalidQueryError ? error.message : `query failed: ${(error as Error).message}`.slice(0, 2000) };
    }
    const reply = (p: PayloadOf<'audit.result'>) =>
      encoder.encode(JSON.stringify(createMessage('audit.result', { session_id: request.session_id, agent_id: request.agent_id, trace_id: request.trace_id, causation_id: request.id, payload: p })));
    let data = reply(payload);
    if (data.byteLength > MAX_REPLY_BYTES) data = reply({ query, rows: [], error: `the result is ${data.byteLength} bytes: ask for fewer rows (limit)` });
    msg.respond(data);
  }
}
