import { createHash } from 'node:crypto';
import { createMessage, derivedMessageId, type MessageOf } from '@warden/contracts';
import type { SessionToolRuns, SessionUsage } from '@warden/telemetry';

/** usage.reported holds at most this many entries; a larger export is sent in several. */
const ENTRIES_PER_MESSAGE = 1000;

const digest = (keys: readonly string[]) => createHash('sha256').update(keys.join('\n')).digest('hex').slice(0, 32);

/**
 * One session's usage as the agent's usage.reported messages, of at most 1,000 entries each; the same
 * entries give the same message id, so that an exporter's retry is dropped by JetStream.
 */
export function usageMessages(agentId: string, session: SessionUsage): MessageOf<'usage.reported'>[] {
  const messages: MessageOf<'usage.reported'>[] = [];
  for (let i = 0; i < session.entries.length; i += ENTRIES_PER_MESSAGE) {
    const entries = session.entries.slice(i, i + ENTRIES_PER_MESSAGE);
    const id = derivedMessageId('usage.reported', `${agentId}:${session.sessionId}:${session.source}:${digest(entries.map((e) => e.key))}`);
    messages.push(createMessage('usage.reported', { id, agent_id: agentId, session_id: session.sessionId, payload: { source: session.source, agent_kind: session.agentKind, entries } }));
  }
  return messages;
}

/**
 * One session's tool runs as session.tools_observed messages, of at most 1,000 runs each; the same runs
 * give the same message id, so that an exporter's retry is dropped by JetStream.
 */
export function toolRunMessages(agentId: string, session: SessionToolRuns): MessageOf<'session.tools_observed'>[] {
  const messages: MessageOf<'session.tools_observed'>[] = [];
  for (let i = 0; i < session.runs.length; i += ENTRIES_PER_MESSAGE) {
    const runs = session.runs.slice(i, i + ENTRIES_PER_MESSAGE);
    const id = derivedMessageId('session.tools_observed', `${agentId}:${session.sessionId}:${digest(runs.map((r) => r.key))}`);
    messages.push(
      createMessage('session.tools_observed', { id, agent_id: agentId, session_id: session.sessionId, payload: { source: 'telemetry_event', agent_kind: session.agentKind, tool_runs: runs } }),
    );
  }
  return messages;
}
