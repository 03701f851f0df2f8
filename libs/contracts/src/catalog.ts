import type { Static } from 'typebox';
import type { ChannelId } from './channels.js';
import { envelopeSchema, type Envelope, type MessageDefinition } from './envelope.js';
import { ActionFallback, ActionOutcome, ActionProposed, ActionRanAgainstDecision } from './messages/action.js';
import { AuditQuery, AuditResult } from './messages/audit.js';
import {
  BreakerCommand,
  BreakerCommandApplied,
  BreakerCostRecorded,
  BreakerError,
  BreakerStateChanged,
  BreakerTripped,
  BreakerWarning,
} from './messages/breaker.js';
import { CheckpointSaved } from './messages/checkpoint.js';
import { ControlAcknowledged, ControlIssued } from './messages/control.js';
import { DeadLetterRecorded } from './messages/deadletter.js';
import { DecisionMade } from './messages/decision.js';
import {
  GateCommand,
  GateEscalated,
  GateRequested,
  GateResponded,
  HitlInterventionRecorded,
  HitlPaused,
  HitlResumed,
} from './messages/gate.js';
import { IncidentCreated, InterventionEvaluated, InterventionIssued } from './messages/intervention.js';
import { LadderCommand, LadderLevelChanged, LadderMetricsUpdated } from './messages/ladder.js';
import { PatternDetected } from './messages/pattern.js';
import { ReviewVerdict } from './messages/review.js';
import { UsageReported } from './messages/usage.js';
import { SessionEnded, SessionGoalChanged, SessionPhaseChanged, SessionStarted, SessionToolsObserved, SessionTurnEnded } from './messages/session.js';

/** Every message type of the suite. The one source of truth for types, validation and the AsyncAPI document. */
export const MESSAGE_DEFINITIONS = [
  ActionProposed,
  ActionOutcome,
  ActionFallback,
  ActionRanAgainstDecision,
  UsageReported,
  SessionStarted,
  SessionPhaseChanged,
  SessionGoalChanged,
  SessionTurnEnded,
  SessionEnded,
  SessionToolsObserved,
  CheckpointSaved,
  ControlAcknowledged,
  ReviewVerdict,
  DecisionMade,
  ControlIssued,
  PatternDetected,
  InterventionIssued,
  InterventionEvaluated,
  IncidentCreated,
  BreakerTripped,
  BreakerWarning,
  BreakerStateChanged,
  BreakerCostRecorded,
  BreakerError,
  BreakerCommand,
  BreakerCommandApplied,
  GateRequested,
  GateResponded,
  GateEscalated,
  HitlPaused,
  HitlResumed,
  HitlInterventionRecorded,
  GateCommand,
  LadderMetricsUpdated,
  LadderLevelChanged,
  LadderCommand,
  DeadLetterRecorded,
  AuditQuery,
  AuditResult,
] as const;

type Definitions = (typeof MESSAGE_DEFINITIONS)[number];
export type MessageType = Definitions['type'];
export type DefinitionOf<T extends MessageType> = Extract<Definitions, { type: T }>;
export type PayloadOf<T extends MessageType> = Static<DefinitionOf<T>['payload']>;
export type MessageOf<T extends MessageType> = Envelope<T, PayloadOf<T>>;
export type AnyMessage = { [T in MessageType]: MessageOf<T> }[MessageType];

const byType = new Map<string, MessageDefinition>(MESSAGE_DEFINITIONS.map((d) => [d.type, d]));

export function definitionOf(type: string): MessageDefinition | undefined {
  return byType.get(type);
}

export function isMessageType(type: string): type is MessageType {
  return byType.has(type);
}

export function messageTypesOn(channelId: ChannelId): MessageType[] {
  return MESSAGE_DEFINITIONS.filter((d) => d.channel === channelId).map((d) => d.type);
}

/** The full JSON Schema (envelope and payload) of a message type. */
export function messageSchema(type: MessageType) {
  const definition = byType.get(type);
  if (!definition) throw new Error(`unknown message type ${type}`);
  return envelopeSchema(definition);
}
