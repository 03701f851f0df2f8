import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SEVERITIES, type AnyMessage } from '@warden/contracts';
import { resolvePatternSettings } from '@warden/patterns';
import { loadProjectKnowledge } from '@warden/settings-loader';
import { priceOf, SessionPatterns, type PatternReport } from '@warden/patterns';
import { durationOf, formatScores, loadCorpus, score, sessionMessages, type Detected } from './corpus/corpus.js';

/**
 * The corpus replayed through the detectors in process, message by message in publishing order — the
 * fast companion of pattern-corpus.spec.ts, which sends the same sessions through the real service over
 * NATS. Both must agree on what the corpus says.
 */
const settings = resolvePatternSettings();
const knowledge = [loadProjectKnowledge(join(fileURLToPath(new URL('.', import.meta.url)), '../../../deploy/reviewer/knowledge.toml'))];
const corpus = loadCorpus();

function replay(messages: AnyMessage[], patterns: SessionPatterns): PatternReport[] {
  const reports: PatternReport[] = [];
  for (const m of messages) {
    const at = Date.parse(m.timestamp);
    if (m.type === 'session.started') reports.push(...patterns.started(at, m.payload as never));
    else if (m.type === 'session.phase_changed') reports.push(...patterns.phaseChanged(at, (m.payload as { phase: never }).phase));
    else if (m.type === 'session.goal_changed') reports.push(...patterns.goalChanged(at, (m.payload as { goal: string }).goal));
    else if (m.type === 'action.proposed') reports.push(...patterns.actionProposed(at, m.payload as never));
    else if (m.type === 'action.outcome') {
      const p = m.payload as { model?: string; tokens?: { prompt: number; completion: number } };
      reports.push(...patterns.outcomeReported(at, m.payload as never, priceOf(settings.resource_spiral.pricing, p.model, p.tokens)));
    } else if (m.type === 'review.verdict') reports.push(...patterns.verdict(at, m.payload as never));
  }
  return reports;
}

describe('the labelled corpus, in process', () => {
  const detected: Detected[] = [];
  const bySession = new Map<string, PatternReport[]>();

  beforeAll(() => {
    for (const session of corpus) {
      const start = Date.parse('2026-03-02T09:00:00Z');
      const patterns = SessionPatterns.open(settings, knowledge, 'agent-corpus', session.name, start);
      const reports = replay(sessionMessages(session, session.name, 'agent-corpus', start), patterns);
      bySession.set(session.name, reports);
      for (const r of reports) detected.push({ session: session.name, type: r.pattern_type, severity: r.severity, shadow: r.shadow });
      expect(durationOf(session)).toBeGreaterThan(0);
    }
    process.stdout.write(`\nCorpus (${corpus.length} sessions), in process:\n${formatScores(score(corpus, detected))}\n`);
  });

  it('has at least 20 sessions, clean ones and at least one for every pattern type', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(20);
    expect(corpus.filter((s) => !s.expected_patterns.length).length).toBeGreaterThanOrEqual(5);
    const covered = new Set(corpus.flatMap((s) => s.expected_patterns.map((p) => p.type)));
    expect([...covered].sort()).toEqual([...score(corpus, []).map((s) => s.type)].sort());
  });

  it.each(corpus.map((s) => [s.name, s] as const))('%s: finds what is expected and nothing else', (name, session) => {
    const reports = bySession.get(name)!;
    const worst = (type: string) => reports.filter((r) => r.pattern_type === type).reduce((w, r) => Math.max(w, SEVERITIES.indexOf(r.severity)), -1);
    for (const want of session.expected_patterns) expect({ type: want.type, reached: worst(want.type) >= SEVERITIES.indexOf(want.min_severity) }).toEqual({ type: want.type, reached: true });
    const unexpected = reports.filter((r) => !session.expected_patterns.some((p) => p.type === r.pattern_type));
    expect(unexpected.map((r) => `${r.pattern_type}/${r.severity}: ${r.description}`)).toEqual([]);
  });
});
