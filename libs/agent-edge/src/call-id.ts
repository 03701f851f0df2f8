import { createHash, randomBytes } from 'node:crypto';
import { canonicalJson } from '@warden/contracts';
import type { EdgeToolCall } from './edge-event.js';
import type { DerivedCallRecord, HookSessionState } from './session-state.js';

/** How many open calls a session's state remembers (the oldest are forgotten first): more than ever run at once. */
export const DERIVED_CALLS_KEPT = 100;

/** How many closed calls it remembers, the latest: for an outcome delivered again, or of a refused call that ran all the same. */
export const CLOSED_CALLS_KEPT = 2;

const digest = (text: string, length: number) => createHash('sha256').update(text).digest('hex').slice(0, length);

/**
 * The key of a tool call for agents whose hooks name no call (Cursor's shell and MCP events, Copilot
 * CLI, Gemini CLI, Factory): the tool and its input, which the events before and after the call both
 * carry. The same command run twice has one key and two ids (proposedCallId).
 */
export function derivedCallKey(tool: string, input: Record<string, unknown>): string {
  return `d${digest(canonicalJson({ tool, input }), 32)}`;
}

/** A call the agent names no id for, as its adapter reads it: its key for an id. */
export function derivedCall(tool: string, input: Record<string, unknown>): EdgeToolCall {
  return { id: derivedCallKey(tool, input), derived: true, tool, input };
}

/** A derived call as its hook proposes it: with the payload that carried it (deliveryOf). A call the agent names is returned as it is. */
export function proposedIn(call: EdgeToolCall, payload: unknown): EdgeToolCall {
  return call.derived ? { ...call, payload } : call;
}

const deliveries = new WeakMap<object, string>();

/**
 * The digest of the payload that proposed a derived call (its fields in the order they came: the same
 * hook delivered again is the same bytes). It tells that from the next call of the same command, whose
 * payload differs where the agent stamps its events (Copilot's and Gemini's `timestamp`, Cursor's
 * `generation_id`). Worked out when first asked for: only a call whose key has one open needs it before
 * the answer.
 */
export function deliveryOf(call: EdgeToolCall): string | undefined {
  const { payload } = call;
  if (payload === undefined) return undefined;
  if (typeof payload !== 'object' || payload === null) return digest(JSON.stringify(payload), 16);
  let known = deliveries.get(payload);
  if (known === undefined) {
    known = digest(JSON.stringify(payload), 16);
    deliveries.set(payload, known);
  }
  return known;
}

/** 64 random bits drawn when the process starts: what sets its call ids apart from every other process's. */
const PROCESS_TAG = randomBytes(8).toString('hex');
let callsNamed = 0;

/**
 * A new id for a derived call: its key and its tag, this process's random part and how many calls it named
 * before. Unique by construction, so that any gateway replica (or a restarted one) can name a call without
 * asking the others first (its record follows the answer).
 */
export const newCallId = (key: string): string => `${key}-${PROCESS_TAG}${(callsNamed++).toString(36)}`;

const latestOf = (state: HookSessionState, call: EdgeToolCall): DerivedCallRecord | undefined => state.derivedCalls?.[call.id];

/** A record's call id: its key and its tag. */
const idOf = (call: EdgeToolCall, record: DerivedCallRecord) => `${call.id}-${record.tag}`;

/** What a state keeps of a call id: what follows its key. */
const tagOf = (call: EdgeToolCall, id: string) => id.slice(call.id.length + 1);

/** A record closed: its payload's digest is of no more use. */
const closedRecord = (record: DerivedCallRecord): DerivedCallRecord => ({ tag: record.tag, closed: true });

/**
 * The id of the proposed call this one repeats: the same hook delivered again (the same payload) while
 * its call is open (proposed, neither run nor refused yet). Undefined for a new call.
 */
export function repeatedCallId(state: HookSessionState, call: EdgeToolCall): string | undefined {
  const latest = latestOf(state, call);
  return latest && !latest.closed && latest.delivery !== undefined && latest.delivery === deliveryOf(call) ? idOf(call, latest) : undefined;
}

/** Whether the state holds the call's latest proposal still open: its outcome will close it. */
export function hasOpenCall(state: HookSessionState, call: EdgeToolCall): boolean {
  const latest = latestOf(state, call);
  return latest !== undefined && !latest.closed;
}

/** The calls kept: the latest CLOSED_CALLS_KEPT closed ones, and DERIVED_CALLS_KEPT in all, oldest forgotten first. */
function kept(calls: Record<string, DerivedCallRecord>): Record<string, DerivedCallRecord> {
  const keys = Object.keys(calls);
  let closed = 0;
  for (let i = keys.length - 1; i >= 0; i--) {
    if (calls[keys[i]!]!.closed && ++closed > CLOSED_CALLS_KEPT) delete calls[keys[i]!];
  }
  const left = Object.keys(calls);
  for (const key of left.slice(0, Math.max(0, left.length - DERIVED_CALLS_KEPT))) delete calls[key];
  return calls;
}

/** Records a proposed call as the latest of its key (closed at once when the agent was told not to run it), re-inserted last. */
export function noteProposed(state: HookSessionState, call: EdgeToolCall, id: string, refused = false): void {
  const calls = { ...(state.derivedCalls ?? {}) };
  delete calls[call.id];
  const delivery = refused ? undefined : deliveryOf(call);
  calls[call.id] = refused ? { tag: tagOf(call, id), closed: true } : { tag: tagOf(call, id), ...(delivery !== undefined ? { delivery } : {}) };
  state.derivedCalls = kept(calls);
}

/**
 * The id of the call an outcome reports: the latest proposal of its key, closed by it. Two identical
 * calls running at the same time cannot be told apart (both outcomes go to the later one). An outcome
 * whose call was never proposed goes under its key and `-unproposed`.
 */
export function noteOutcome(state: HookSessionState, call: EdgeToolCall): string {
  const latest = latestOf(state, call);
  if (!latest) return `${call.id}-unproposed`;
  if (!latest.closed) state.derivedCalls = kept({ ...state.derivedCalls, [call.id]: closedRecord(latest) });
  return idOf(call, latest);
}

/** Closes a call the agent was told not to run: no outcome will come, and the same payload again is a new call. */
export function noteRefused(state: HookSessionState, call: EdgeToolCall, id: string): void {
  const latest = latestOf(state, call);
  if (latest && idOf(call, latest) === id && !latest.closed) state.derivedCalls = kept({ ...state.derivedCalls, [call.id]: closedRecord(latest) });
}
