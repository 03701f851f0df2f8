import type { ControlMessage } from '@warden/sdk';

/**
 * What Warden has to say to an agent for one event, whichever agent: each adapter renders it in its
 * agent's format (and leaves out what its agent cannot hear). Texts are final: an adapter places them.
 */
export interface EdgeAnswer {
  /** For a tool call about to run: what becomes of it. */
  tool?: ToolAnswer;
  /** Text for the model: control messages (corrections, reminders, throttling, rollback), warnings. */
  context: string[];
  /** Text for the person at the agent: a warning, an operator's approval, why something was not recorded. */
  notice?: string;
  /** An emergency stop is in force: the agent should stop working (with this reason). */
  stop?: string;
  /** For a prompt: refuse it; for the end of a turn: keep working, with this as the reason. */
  block?: string;
}

/** What becomes of a tool call. */
export type ToolAnswer =
  /** No objection: the agent's own permission rules and prompts decide (never an allow Warden did not mean). */
  | { decision: 'run' }
  /** Approved on the user's behalf (the `decide` setting): the agent's own prompt is skipped. */
  | { decision: 'allow'; reason: string }
  | { decision: 'deny'; reason: string }
  /** The agent asks its user, with Warden's reason; `input` is a changed input to show instead of the proposed one. */
  | { decision: 'ask'; reason: string; input?: Record<string, unknown> }
  /** Run this input instead of the proposed one. */
  | { decision: 'rewrite'; reason: string; input: Record<string, unknown> };

/** Control messages as the model reads them, or the stop order among them. */
export interface ControlGuidance {
  /** Text for the model: corrections, reinforcement, throttling, rollback, operator messages. */
  context: string[];
  /** Set when an emergency stop is in force. */
  stop?: string;
}

export const NO_GUIDANCE: ControlGuidance = Object.freeze({ context: [] as string[] }) as ControlGuidance;

const CONTROL_PREFIX: Record<string, string> = {
  soft_correction: 'Warden correction',
  context_reinforcement: 'Warden reminder of the task',
  resource_throttling: 'Warden throttling',
  checkpoint_rollback: 'Warden rollback',
  operator_message: 'Message from the operator',
  resume: 'Warden: you may continue',
};

/** One line of text for the model per control message, in the order they were issued. */
export function controlText(control: ControlMessage): string {
  const p = control.payload;
  const parts = [p.message ?? ''];
  if (p.limits) parts.push(`limits: ${Object.entries(p.limits).map(([k, v]) => `${k}=${v}`).join(', ')}`);
  if (p.checkpoint_id) parts.push(`restore checkpoint ${p.checkpoint_id}`);
  const body = parts.filter(Boolean).join('; ') || p.kind.replace(/_/g, ' ');
  return `${CONTROL_PREFIX[p.kind] ?? 'Warden'}: ${body}`;
}

export function stopReasonOf(control: ControlMessage): string {
  return `Warden stopped this session (emergency stop${control.payload.incident_id ? `, incident ${control.payload.incident_id}` : ''}): ${control.payload.message ?? 'no reason given'}`;
}

export function mergeGuidance(a: ControlGuidance, b: ControlGuidance): ControlGuidance {
  return { context: [...a.context, ...b.context], ...((b.stop ?? a.stop) ? { stop: b.stop ?? a.stop } : {}) };
}

/** The answer of an event that only passes control messages on (a tool's outcome, a session's start). */
export function guidanceAnswer(guidance: ControlGuidance): EdgeAnswer {
  return { context: guidance.context, ...(guidance.stop ? { stop: guidance.stop } : {}) };
}

/** A prompt: pending control messages for the model; a stopped session takes no prompt. */
export function promptAnswer(guidance: ControlGuidance): EdgeAnswer {
  return guidance.stop ? { context: [], block: guidance.stop } : guidanceAnswer(guidance);
}

/**
 * The end of a turn: control messages the model has not seen keep it working one more turn with them as
 * the reason (never twice in a row: `prolonged`); otherwise the agent stops as it wanted.
 */
export function turnEndAnswer(guidance: ControlGuidance, prolonged: boolean): EdgeAnswer {
  if (guidance.stop || prolonged || !guidance.context.length) return { context: [] };
  return { context: [], block: guidance.context.join('\n') };
}

/** Whether an answer says nothing at all. */
export const isSilent = (answer: EdgeAnswer): boolean =>
  (!answer.tool || answer.tool.decision === 'run') && !answer.context.length && !answer.notice && !answer.stop && !answer.block;
