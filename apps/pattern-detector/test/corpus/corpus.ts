import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMessage, PATTERN_TYPES, SEVERITIES, type AnyMessage, type PatternType, type Phase, type PhaseProgress, type Severity } from '@warden/contracts';

/**
 * The labelled corpus (test/corpus/sessions, written for the project): one realistic agent session per
 * JSON file (declared context, ordered actions with their outcomes, phase changes) and the patterns it
 * should produce. Times are seconds from the session's start. `warden eval` reads the same files.
 */
export interface CorpusAction {
  at: number;
  id: string;
  tool: string;
  kind?: string;
  input: Record<string, unknown>;
  description?: string;
  outcome: {
    after: number;
    status: 'success' | 'error';
    error?: { message: string; class?: string };
    output_excerpt?: string;
    files_touched?: string[];
    tokens?: { prompt: number; completion: number };
    model?: string;
    progress?: PhaseProgress;
  };
  verdict?: { goal_alignment: number };
}

export interface CorpusSession {
  name: string;
  description: string;
  agent_kind: string;
  context: { goal: string; expected_paths?: string[]; cwd: string };
  phase?: Phase;
  expected_patterns: { type: PatternType; min_severity: Severity }[];
  /** Actions, phase changes, and follow-up requests of the user (the goal changes). */
  events: (CorpusAction | { at: number; phase: Phase } | { at: number; request: string })[];
}

/** The project's labelled sessions, shared with `warden eval` (test/corpus/sessions). */
const here = join(dirname(fileURLToPath(import.meta.url)), '../../../../test/corpus/sessions');

export function loadCorpus(): CorpusSession[] {
  return readdirSync(here)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(here, f), 'utf8')) as CorpusSession);
}

/** The session's messages as the agent's SDK would publish them, timestamped from `startMs`. */
export function sessionMessages(session: CorpusSession, sessionId: string, agentId: string, startMs: number): AnyMessage[] {
  const iso = (seconds: number) => new Date(startMs + Math.round(seconds * 1000)).toISOString();
  const base = { session_id: sessionId, agent_id: agentId };
  const messages: { at: number; message: AnyMessage }[] = [
    {
      at: -1,
      message: createMessage('session.started', {
        ...base,
        timestamp: iso(0),
        payload: { context: session.context, ...(session.phase ? { phase: session.phase } : {}), agent_kind: session.agent_kind },
      }) as AnyMessage,
    },
  ];
  let phase = session.phase;
  for (const event of session.events) {
    if ('request' in event) {
      messages.push({ at: event.at, message: createMessage('session.goal_changed', { ...base, timestamp: iso(event.at), payload: { goal: event.request, source: 'user_prompt' } }) as AnyMessage });
      continue;
    }
    if ('phase' in event) {
      messages.push({ at: event.at, message: createMessage('session.phase_changed', { ...base, timestamp: iso(event.at), payload: { phase: event.phase, ...(phase ? { previous_phase: phase } : {}) } }) as AnyMessage });
      phase = event.phase;
      continue;
    }
    messages.push({
      at: event.at,
      message: createMessage('action.proposed', {
        ...base,
        timestamp: iso(event.at),
        payload: {
          action_id: event.id,
          kind: event.kind ?? 'tool_use',
          tool: event.tool,
          input: event.input,
          ...(event.description ? { description: event.description } : {}),
          ...(phase ? { phase } : {}),
        },
      }) as AnyMessage,
    });
    const { after, ...outcome } = event.outcome;
    messages.push({
      at: event.at + after,
      message: createMessage('action.outcome', { ...base, timestamp: iso(event.at + after), payload: { action_id: event.id, tool: event.tool, ...outcome, ...(phase ? { phase } : {}) } }) as AnyMessage,
    });
    if (event.verdict) {
      messages.push({
        at: event.at + 0.1,
        message: createMessage('review.verdict', {
          ...base,
          timestamp: iso(event.at + 0.1),
          payload: {
            action_id: event.id,
            verdict: 'allow',
            reasons: [],
            risk: { score: 0.1, severity: 'low', factors: [] },
            confidence: 0.9,
            action: { kind: event.kind ?? 'tool_use', tool: event.tool, input: event.input },
            rationality: { score: 0.6, components: { goal_alignment: event.verdict.goal_alignment, logical_progression: 0.7, efficiency: 0.7, completeness: 0.7 }, issues: [] },
          },
        }) as AnyMessage,
      });
    }
  }
  return messages.sort((a, b) => a.at - b.at).map((m) => m.message);
}

/** How long the session ran, in seconds. */
export function durationOf(session: CorpusSession): number {
  return Math.max(0, ...session.events.map((e) => ('outcome' in e ? e.at + e.outcome.after : e.at)));
}

export interface Detected {
  session: string;
  type: PatternType;
  severity: Severity;
  shadow: boolean;
}

export interface Score {
  type: PatternType;
  expected: number;
  found: number;
  truePositives: number;
  falsePositives: number;
  precision: number;
  recall: number;
}

const rank = (s: Severity) => SEVERITIES.indexOf(s);

/**
 * Precision and recall per pattern type over the corpus. A session's detection of a type counts once
 * (its highest severity); it is a true positive when the session expects that type and it reached the
 * expected minimum severity. Precision: true positives / sessions where the type was detected; recall:
 * true positives / sessions expecting it.
 */
export function score(corpus: readonly CorpusSession[], detected: readonly Detected[]): Score[] {
  return PATTERN_TYPES.map((type) => {
    let expected = 0;
    let found = 0;
    let truePositives = 0;
    for (const session of corpus) {
      const want = session.expected_patterns.find((p) => p.type === type);
      const got = detected.filter((d) => d.session === session.name && d.type === type);
      const worst = got.reduce<Severity | undefined>((w, d) => (!w || rank(d.severity) > rank(w) ? d.severity : w), undefined);
      if (want) expected++;
      if (worst) found++;
      if (want && worst && rank(worst) >= rank(want.min_severity)) truePositives++;
    }
    return {
      type,
      expected,
      found,
      truePositives,
      falsePositives: found - truePositives,
      precision: found ? truePositives / found : 1,
      recall: expected ? truePositives / expected : 1,
    };
  });
}

export function formatScores(scores: readonly Score[]): string {
  const pad = (v: string | number, n: number) => String(v).padEnd(n);
  const lines = [`${pad('pattern type', 20)}${pad('expected', 10)}${pad('found', 8)}${pad('TP', 5)}${pad('FP', 5)}${pad('precision', 11)}recall`];
  for (const s of scores) lines.push(`${pad(s.type, 20)}${pad(s.expected, 10)}${pad(s.found, 8)}${pad(s.truePositives, 5)}${pad(s.falsePositives, 5)}${pad(s.precision.toFixed(2), 11)}${s.recall.toFixed(2)}`);
  return lines.join('\n');
}
