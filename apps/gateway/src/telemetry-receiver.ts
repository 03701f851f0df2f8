import type { Logger } from '@warden/observability';
import type { WardenClient } from '@warden/sdk';
import { encodeExportResponse, OtlpInputError, readUsage, type Encoding, type Signal } from '@warden/telemetry';
import { AgentUnauthorized, type AgentConnections } from './agent-connections.js';
import type { GatewayMetrics } from './gateway-metrics.js';
import { credentialsOf, HookRequestError } from './hook-request.js';
import type { SessionOwners } from './session-records.js';
import { toolRunMessages, usageMessages } from './usage-messages.js';

/** One OTLP/HTTP export as the HTTP server received it (the body decompressed). */
export interface TelemetryExport {
  signal: Signal;
  encoding: Encoding;
  authorization: string | undefined;
  body: Uint8Array;
}

/** The answer: an export response (200), or an error status with the reason, which OTLP exporters log. */
export type TelemetryReply = { status: 200; contentType: string; body: Uint8Array | string } | { status: 400 | 401 | 403 | 503; error: string };

/**
 * Agents' own telemetry (OTLP/HTTP `POST /v1/metrics` and `/v1/logs`, the token as for hooks): the
 * model usage in it becomes `usage.reported` of each session, published over the agent's own connection,
 * which the breaker charges like an SDK's outcome; Claude Code's tool runs become `session.tools_observed`,
 * which the pattern detector holds against the actions the session's hooks proposed. Nothing is published for a request that is refused:
 * a token that is not valid (401), a body that is not an OTLP export (400), a session that belongs to
 * another agent (403). What is not model usage is acknowledged and dropped; usage Warden cannot charge
 * (no session id, cumulative sums) is answered as a partial success with why.
 */
export class TelemetryReceiver {
  constructor(
    private readonly connections: AgentConnections,
    private readonly owners: SessionOwners,
    private readonly metrics: GatewayMetrics,
    private readonly log: Logger,
    private readonly busUp: () => boolean = () => true,
  ) {}

  async receive(request: TelemetryExport): Promise<TelemetryReply> {
    const started = performance.now();
    let outcome = 'accepted';
    try {
      const credentials = credentialsOf(request.authorization);
      let reading;
      try {
        reading = readUsage(request.signal, request.encoding, request.body);
      } catch (error) {
        if (error instanceof OtlpInputError) throw new HookRequestError(400, `not an OTLP ${request.signal} export: ${error.message}`);
        throw error;
      }
      if (!this.busUp()) throw new HookRequestError(503, 'cannot reach Warden: the gateway is not connected to NATS; export again later');
      let client: WardenClient;
      try {
        client = await this.connections.client(credentials);
      } catch (error) {
        if (error instanceof AgentUnauthorized) throw new HookRequestError(401, error.message);
        throw new HookRequestError(503, `cannot reach Warden: ${(error as Error).message}`);
      }
      this.metrics.agents.set(this.connections.size);
      // Every session is the agent's, or nothing of the export is recorded.
      for (const sessionId of new Set([...reading.sessions, ...reading.toolRuns].map((s) => s.sessionId))) {
        let owner: string;
        try {
          owner = await this.owners.claim(sessionId, credentials.agentId);
        } catch (error) {
          throw new HookRequestError(503, `the owner of session ${sessionId} could not be read: ${(error as Error).message}`);
        }
        if (owner !== credentials.agentId) throw new HookRequestError(403, `session ${sessionId} belongs to another agent; agent ${credentials.agentId}'s token may not report for it`);
      }
      try {
        for (const session of reading.sessions) for (const message of usageMessages(client.agentId, session)) await client.publish(message);
        // What the agent ran, for the pattern detector to hold against what its hooks proposed.
        for (const session of reading.toolRuns) for (const message of toolRunMessages(client.agentId, session)) await client.publish(message);
      } catch (error) {
        throw new HookRequestError(503, `the usage could not be recorded: ${(error as Error).message}; export again`);
      }
      for (const session of reading.sessions) this.metrics.usageEntries.inc({ agent_kind: session.agentKind, source: session.source }, session.entries.length);
      if (reading.rejected.count) {
        outcome = 'partial';
        this.metrics.usageRejected.inc({ signal: request.signal }, reading.rejected.count);
      }
      const rejected = reading.rejected.count ? { count: reading.rejected.count, message: reading.rejected.reasons.join('; ').slice(0, 2000) } : undefined;
      return { status: 200, ...encodeExportResponse(request.signal, request.encoding, rejected) };
    } catch (error) {
      if (!(error instanceof HookRequestError)) throw error;
      outcome = { 400: 'invalid', 401: 'unauthorized', 403: 'forbidden', 413: 'invalid', 503: 'unavailable' }[error.status];
      if (error.status === 503) this.log.warn({ signal: request.signal }, error.message);
      return { status: error.status as 400 | 401 | 403 | 503, error: error.message };
    } finally {
      this.metrics.exports.inc({ signal: request.signal, encoding: request.encoding, outcome });
      this.metrics.exportSeconds.observe({ signal: request.signal }, (performance.now() - started) / 1000);
    }
  }
}
