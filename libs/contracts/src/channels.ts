import type { Participant } from './vocabulary.js';

/**
 * A channel is one family of subjects with one JetStream stream behind it.
 *
 * Session channels are published as `warden.<channel>.<agent_id>.<session_id>`; the server's subject
 * mapping inserts the partition, so they are stored and consumed as
 * `warden.<channel>.<partition>.<agent_id>.<session_id>` (intent first, identifiers last).
 */
export interface SessionChannel {
  readonly id: string;
  readonly kind: 'session';
  readonly title: string;
  readonly description: string;
  readonly senders: readonly Participant[];
  readonly receivers: readonly Participant[];
  /** How long the stream keeps messages. */
  readonly maxAgeHours: number;
}

/** Rejected messages, one subject per service and origin: `warden.deadletter.<service>.<channel>.<partition>.<agent_id>.<session_id>`. */
export interface DeadLetterChannel {
  readonly id: 'deadletter';
  readonly kind: 'deadletter';
  readonly title: string;
  readonly description: string;
  readonly senders: readonly Participant[];
  readonly receivers: readonly Participant[];
  readonly maxAgeHours: number;
}

/** Core NATS request/reply, not stored: `warden.query.<service>`. */
export interface RequestChannel {
  readonly id: string;
  readonly kind: 'request';
  readonly title: string;
  readonly description: string;
  readonly senders: readonly Participant[];
  readonly receivers: readonly Participant[];
  readonly address: string;
}

export type Channel = SessionChannel | DeadLetterChannel | RequestChannel;

const DAY = 24;
const ALL_SERVICES = [
  'reviewer',
  'pattern-detector',
  'intervention-controller',
  'breaker',
  'gate',
  'ladder',
  'audit',
] as const satisfies readonly Participant[];

function sessionChannel(def: Omit<SessionChannel, 'kind' | 'maxAgeHours'> & { maxAgeHours?: number }): SessionChannel {
  return { kind: 'session', maxAgeHours: 7 * DAY, ...def };
}

export const CHANNELS = {
  action: sessionChannel({
    id: 'action',
    title: 'Proposed actions',
    description: 'Every action an agent is about to take, published before it runs.',
    senders: ['agent'],
    receivers: ['reviewer', 'pattern-detector', 'intervention-controller', 'breaker', 'audit'],
  }),
  outcome: sessionChannel({
    id: 'outcome',
    title: 'Action outcomes',
    description: 'What happened when the agent ran an action: success or error, duration, tokens and model, files touched.',
    senders: ['agent'],
    receivers: ['reviewer', 'pattern-detector', 'intervention-controller', 'breaker', 'audit'],
  }),
  session: sessionChannel({
    id: 'session',
    title: 'Session lifecycle',
    description: 'Session start with the declared goal, expected paths and constraints; phase changes; the end of a run.',
    senders: ['agent'],
    receivers: ['reviewer', 'pattern-detector', 'intervention-controller', 'breaker', 'gate', 'ladder', 'audit'],
  }),
  usage: sessionChannel({
    id: 'usage',
    title: 'Model usage',
    description: "Model usage (tokens, cost) as the agent's own telemetry or transcript reports it, per session: what the budgets count.",
    senders: ['agent'],
    receivers: ['breaker', 'audit'],
  }),
  checkpoint: sessionChannel({
    id: 'checkpoint',
    title: 'Agent checkpoints',
    description: 'Checkpoints the agent saved (file snapshots in the object store, conversation position) for rollback.',
    senders: ['agent'],
    receivers: ['reviewer', 'intervention-controller', 'audit'],
  }),
  control_ack: sessionChannel({
    id: 'control_ack',
    title: 'Control acknowledgements',
    description: 'The agent confirms that it applied a control message: a correction read, a rollback restored, a stop done.',
    senders: ['agent'],
    receivers: ['intervention-controller', 'audit'],
  }),
  verdict: sessionChannel({
    id: 'verdict',
    title: 'Review verdicts',
    description: "The reviewer's verdict on each proposed action, with reasons, risk and alternatives.",
    senders: ['reviewer'],
    receivers: ['gate', 'pattern-detector', 'intervention-controller', 'audit'],
  }),
  decision: sessionChannel({
    id: 'decision',
    title: 'Final decisions',
    description: 'The one final decision per proposed action, sent by the gate to the agent, correlated by action id.',
    senders: ['gate'],
    receivers: ['agent', 'ladder', 'audit'],
  }),
  control: sessionChannel({
    id: 'control',
    title: 'Control messages',
    description: 'Corrections, reinforcement, throttling, rollback and stop orders for a running agent.',
    senders: ['intervention-controller', 'gate'],
    // The intervention controller keeps each session's recent ones for agents to read (warden_controls).
    receivers: ['agent', 'audit', 'intervention-controller'],
  }),
  pattern: sessionChannel({
    id: 'pattern',
    title: 'Detected patterns',
    description: 'Session-level behaviour patterns with severity, confidence, impact and evidence.',
    senders: ['pattern-detector'],
    receivers: ['reviewer', 'intervention-controller', 'audit'],
  }),
  intervention: sessionChannel({
    id: 'intervention',
    title: 'Interventions and incidents',
    description: 'Interventions chosen for a session, their measured effect, and incident reports of emergency stops.',
    senders: ['intervention-controller'],
    receivers: ['breaker', 'ladder', 'audit'],
  }),
  breaker: sessionChannel({
    id: 'breaker',
    title: 'Breaker events',
    description: 'Circuit breaker trips, warnings, state changes, recorded costs and pricing errors.',
    senders: ['breaker'],
    receivers: ['intervention-controller', 'audit'],
  }),
  gate: sessionChannel({
    id: 'gate',
    title: 'Gate events',
    description: 'Human gate requests and responses, HITL pauses and resumes, and the audit record of every operator command.',
    senders: ['gate'],
    receivers: ['intervention-controller', 'audit'],
  }),
  gate_command: sessionChannel({
    id: 'gate_command',
    title: 'Gate commands',
    description: 'HITL commands for a session (pause, unpause, rewrite, inject) from operators and from the suite itself.',
    senders: ['operator', 'intervention-controller'],
    receivers: ['gate', 'audit'],
  }),
  breaker_command: sessionChannel({
    id: 'breaker_command',
    title: 'Breaker commands',
    description: 'Operator commands to force-open, disable or reset a breaker of a session.',
    senders: ['operator'],
    receivers: ['breaker', 'audit'],
  }),
  ladder_command: sessionChannel({
    id: 'ladder_command',
    title: 'Ladder commands',
    description: "Operator commands for an agent's automation level (pin, unpin, set), published with the session token `_`.",
    senders: ['operator'],
    receivers: ['ladder', 'audit'],
  }),
  ladder: sessionChannel({
    id: 'ladder',
    title: 'Automation ladder',
    description: "Per-agent track record updates and automation level changes, keyed by the session that caused them.",
    senders: ['ladder'],
    receivers: ['audit'],
  }),
  deadletter: {
    id: 'deadletter',
    kind: 'deadletter',
    title: 'Dead letters',
    description: 'Messages a service rejected (invalid JSON, wrong schema, unknown type, oversized, failing handler), with the reason.',
    senders: [...ALL_SERVICES],
    receivers: ['agent', 'audit'],
    maxAgeHours: 14 * DAY,
  },
  audit_query: {
    id: 'audit_query',
    kind: 'request',
    title: 'Audit queries',
    description: 'Request/reply queries against the audit store (timelines, costs, gate and breaker history).',
    senders: ['operator'],
    receivers: ['audit'],
    address: 'warden.query.audit',
  },
} as const satisfies Record<string, Channel>;

export type ChannelId = keyof typeof CHANNELS;
export type SessionChannelId = {
  [K in ChannelId]: (typeof CHANNELS)[K] extends SessionChannel ? K : never;
}[ChannelId];

export const CHANNEL_IDS = Object.keys(CHANNELS) as ChannelId[];
export const SESSION_CHANNEL_IDS = CHANNEL_IDS.filter(
  (id): id is SessionChannelId => CHANNELS[id].kind === 'session',
);

export function channel(id: ChannelId): Channel {
  return CHANNELS[id];
}

/** The channels a participant consumes, in declaration order. */
export function channelsReceivedBy(participant: Participant): ChannelId[] {
  return CHANNEL_IDS.filter((id) => (CHANNELS[id].receivers as readonly Participant[]).includes(participant));
}
