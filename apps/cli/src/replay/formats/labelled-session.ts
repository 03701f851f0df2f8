import { PHASES, type Phase, type PhaseProgress } from '@warden/contracts';
import type { TokenUsage } from '@warden/pricing';
import { RecordingError, type RecordedAction, type RecordedSession } from '../recorded-session.js';

interface LabelledEvent {
  at?: unknown;
  /** A follow-up request of the user: the goal changes before the next action. */
  request?: unknown;
  id?: unknown;
  tool?: unknown;
  kind?: unknown;
  input?: unknown;
  description?: unknown;
  phase?: unknown;
  outcome?: {
    after?: number;
    status?: 'success' | 'error';
    error?: { message: string; class?: string };
    output_excerpt?: string;
    files_touched?: string[];
    tokens?: TokenUsage;
    model?: string;
    progress?: PhaseProgress;
  };
}

/** What a labelled session says it should produce: the findings `warden eval` holds it to. */
export interface EmbeddedLabel {
  expected_patterns: { type: string; min_severity: string }[];
}

/** When a labelled session's clock starts (its times are seconds from the start). */
const START = Date.parse('2026-03-02T09:00:00Z');

const isPhase = (value: unknown): value is Phase => (PHASES as readonly unknown[]).includes(value);

/**
 * Warden's labelled session (test/corpus/sessions, written for the project): one JSON document with the
 * declared context, the events in order (actions with their outcomes, phase changes, follow-up requests
 * of the user; times in seconds from the start) and the patterns it should produce (`expected_patterns`), which `warden eval` takes as
 * the session's labels.
 */
export function parseLabelledSession(text: string): RecordedSession & { label: EmbeddedLabel } {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new RecordingError(`not JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(doc['events'])) throw new RecordingError('a labelled session needs an "events" list');
  const iso = (seconds: number) => new Date(START + Math.round(seconds * 1000)).toISOString();
  let phase = isPhase(doc['phase']) ? doc['phase'] : undefined;
  const actions: RecordedAction[] = [];
  let request: string | undefined;
  (doc['events'] as LabelledEvent[]).forEach((event, index) => {
    const at = typeof event.at === 'number' ? event.at : index;
    if (typeof event.request === 'string') {
      request = event.request;
      return;
    }
    if (isPhase(event.phase) && event.tool === undefined) {
      phase = event.phase;
      return;
    }
    if (typeof event.id !== 'string' || typeof event.tool !== 'string' || !event.input || typeof event.input !== 'object') {
      throw new RecordingError(`event ${index + 1}: an action needs id, tool and input`);
    }
    const o = event.outcome;
    const pending = request;
    request = undefined;
    actions.push({
      actionId: event.id,
      tool: event.tool,
      input: event.input as Record<string, unknown>,
      kind: typeof event.kind === 'string' ? event.kind : 'tool_use',
      ...(typeof event.description === 'string' ? { description: event.description } : {}),
      ...(phase ? { phase } : {}),
      ...(pending ? { request: pending } : {}),
      at: iso(at),
      ...(o && (o.status === 'success' || o.status === 'error')
        ? {
            outcome: {
              status: o.status,
              ...(o.error ? { error: o.error } : {}),
              ...(o.output_excerpt !== undefined ? { output: o.output_excerpt } : {}),
              ...(o.files_touched ? { filesTouched: o.files_touched } : {}),
              ...(o.tokens ? { tokens: o.tokens } : {}),
              ...(o.model ? { model: o.model } : {}),
              ...(o.progress ? { progress: o.progress } : {}),
              at: iso(at + (o.after ?? 0)),
            },
          }
        : {}),
    });
  });
  const context = (doc['context'] ?? {}) as RecordedSession['declaration']['context'];
  const startPhase = isPhase(doc['phase']) ? doc['phase'] : undefined;
  return {
    format: 'labelled',
    ...(typeof doc['name'] === 'string' ? { sessionId: doc['name'] } : {}),
    declaration: { context, ...(startPhase ? { phase: startPhase } : {}), ...(typeof doc['agent_kind'] === 'string' ? { agent_kind: doc['agent_kind'] } : {}) },
    actions,
    ...(!actions.length ? { empty: `a labelled session of ${(doc['events'] as unknown[]).length} events without an action` } : {}),
    label: { expected_patterns: Array.isArray(doc['expected_patterns']) ? (doc['expected_patterns'] as EmbeddedLabel['expected_patterns']) : [] },
  };
}

/** True for a JSON document that is a labelled session. */
export const looksLikeLabelledSession = (doc: unknown) => !!doc && typeof doc === 'object' && 'events' in doc && 'expected_patterns' in doc;
