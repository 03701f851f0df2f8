import { createMessage, derivedMessageId, type MessageOf } from '@warden/contracts';
import { entryContent, type InjectEntry, type StoredEntry } from './buffer-entry.js';
import { decisionForHeld, type Resolution } from './decision-policy.js';

export type OutgoingMessage = MessageOf<'decision.made'> | MessageOf<'control.issued'>;

/** The id of the one decision per action: the same in the normal path and in a flush, so a re-publish is dropped. */
export function decisionId(agentId: string, sessionId: string, actionId: string): string {
  return derivedMessageId('decision.made', `${agentId}:${sessionId}:${actionId}`);
}

/** The synthetic message an inject sends the agent (FR-11.4): an operator message on the control channel. */
export function injectedControl(
  agentId: string,
  sessionId: string,
  inject: { source_id: string; trace_id: string; prompt: string; operator_id: string },
): MessageOf<'control.issued'> {
  const id = derivedMessageId('control.issued', `hitl_inject:${inject.source_id}`);
  return createMessage('control.issued', {
    id,
    session_id: sessionId,
    agent_id: agentId,
    trace_id: inject.trace_id,
    causation_id: inject.source_id,
    payload: {
      control_id: `hitl-${id}`,
      kind: 'operator_message',
      message: inject.prompt,
      requires_ack: false,
    },
  });
}

/**
 * The participant whose pauses stop the agent as well (an emergency stop): the SDK refuses to propose
 * until it is told to resume, which an operator's approval of that pause does.
 */
export const STOPPING_PARTICIPANT = 'intervention-controller';

/** Tells a stopped agent it may go on: sent when an operator approves the pause of an emergency stop. */
export function resumeControl(agentId: string, sessionId: string, window: { id: string; operator_id: string }, approvedBy: string): MessageOf<'control.issued'> {
  const id = derivedMessageId('control.issued', `resume:${window.id}`);
  return createMessage('control.issued', {
    id,
    session_id: sessionId,
    agent_id: agentId,
    trace_id: window.id,
    causation_id: window.id,
    payload: {
      control_id: `resume-${id}`.slice(0, 128),
      kind: 'resume',
      message: `Operator ${approvedBy} reviewed the stop and lets this session continue.`,
      requires_ack: false,
    },
  });
}

/** An operator's emergency stop: the SDK stops proposing and confirms (control.acknowledged `stopped`). */
export function stopControl(agentId: string, sessionId: string, commandId: string, operatorId: string, reason: string): MessageOf<'control.issued'> {
  const id = derivedMessageId('control.issued', `stop:${commandId}`);
  return createMessage('control.issued', {
    id,
    session_id: sessionId,
    agent_id: agentId,
    trace_id: commandId,
    causation_id: commandId,
    payload: {
      control_id: `stop-${id}`.slice(0, 128),
      kind: 'emergency_stop',
      message: `Emergency stop by operator ${operatorId}: ${reason}`.slice(0, 16000),
      requires_ack: true,
    },
  });
}

/**
 * Whether the operator already injected the rejection prompt in this window: the FRD's Reject is two
 * calls, inject the prompt and then unpause (FR-11.10). The prompt is then sent first, once, and what
 * waited for approval is denied.
 */
export function rejectionAlreadyInjected(entries: StoredEntry[], windowId: string, prompt: string): boolean {
  return entries.some((e) => e.entry.window_id === windowId && e.entry.kind === 'inject' && e.entry.prompt === prompt);
}

export interface FlushSpec extends Resolution {
  window_id: string;
  /** Derived ids of a rejection prompt come from this (the unpause command, or the timed-out request). */
  cause_id: string;
  rejection_prompt?: string;
  through_seq: number;
}

/**
 * What an unpause sends, in order (FR-11.3, FR-11.10): on reject the rejection prompt first, then every
 * buffered entry of the window in arrival order with its rewrite applied. Deterministic: planning the
 * same flush again after a crash yields the same messages with the same ids.
 */
export function planFlush(
  agentId: string,
  sessionId: string,
  entries: StoredEntry[],
  rewrites: Record<string, { new_content: string; operator_id: string }>,
  spec: FlushSpec,
): OutgoingMessage[] {
  const plan: OutgoingMessage[] = [];
  const ordered = entries.filter((e) => e.entry.window_id === spec.window_id && e.seq <= spec.through_seq).sort((a, b) => a.seq - b.seq);
  if (spec.resolution === 'reject') {
    const injected = ordered.find((e) => e.entry.kind === 'inject' && e.entry.prompt === spec.rejection_prompt);
    if (injected) {
      // The operator's own inject of the prompt goes first instead of a second copy.
      ordered.splice(ordered.indexOf(injected), 1);
      ordered.unshift(injected);
    } else {
      plan.push(
        injectedControl(agentId, sessionId, {
          source_id: `reject:${spec.cause_id}`,
          trace_id: spec.window_id,
          prompt: spec.rejection_prompt ?? '',
          operator_id: spec.operator_id,
        }),
      );
    }
  }
  for (const { entry } of ordered) {
    const rewrite = rewrites[entry.trace_id];
    if (entry.kind === 'inject') {
      const prompt = rewrite ? (entryContent(entry, rewrite.new_content) as { prompt: string }).prompt : entry.prompt;
      plan.push(injectedControl(agentId, sessionId, { ...(entry as InjectEntry), prompt }));
      continue;
    }
    const decision = decisionForHeld(
      entry,
      rewrite ? { input: JSON.parse(rewrite.new_content) as Record<string, unknown>, operator_id: rewrite.operator_id } : undefined,
      spec,
    );
    plan.push(
      createMessage('decision.made', {
        id: decisionId(agentId, sessionId, entry.action_id),
        session_id: sessionId,
        agent_id: agentId,
        trace_id: entry.verdict.trace_id,
        causation_id: entry.verdict.id,
        payload: decision,
      }),
    );
  }
  return plan;
}
