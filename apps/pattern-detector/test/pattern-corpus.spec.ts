import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { definitionOf, publishSubject, SEVERITIES, validateMessage, type AnyMessage, type PayloadOf, type SessionChannelId } from '@warden/contracts';
import { ContractHarness } from '@warden/testing';
import { PatternDetectorAppModule } from '../src/app.module.js';
import { loadPatternDetectorConfig } from '../src/config.js';
import { durationOf, formatScores, loadCorpus, score, sessionMessages, type Detected } from './corpus/corpus.js';

/**
 * The labelled corpus through the real service: every session is published over NATS as an agent's
 * SDK would (session start, each proposed action, its outcome, verdicts), the pattern-detector runs
 * in process with its default settings and the project knowledge file of deploy/reviewer, and what it
 * publishes on the pattern channel is scored against each session's expected patterns.
 */
const knowledgePath = join(fileURLToPath(new URL('.', import.meta.url)), '../../../deploy/reviewer/knowledge.toml');
const corpus = loadCorpus();
const encoder = new TextEncoder();
const AGENT = 'agent-1';

const harness = new ContractHarness({
  service: 'pattern-detector',
  createModule: (env, logger) => PatternDetectorAppModule.forRoot(loadPatternDetectorConfig(env), logger),
  prepare: async () => ({ env: { PATTERN_KNOWLEDGE: knowledgePath } }),
});

type Reported = AnyMessage & { payload: PayloadOf<'pattern.detected'> };

describe('the labelled corpus through the service over NATS', () => {
  const reported = new Map<string, Reported[]>();
  const sessionId = (name: string) => `corpus-${name}`.slice(0, 120);

  beforeAll(async () => {
    await harness.start();
    const counts = new Map<string, { channel: string; type: string; n: number }>();
    const before = new Map<string, number>();
    const all = corpus.map((session) => sessionMessages(session, sessionId(session.name), AGENT, Date.now() - durationOf(session) * 1000 - 60_000));
    for (const message of all.flat()) {
      const channel = definitionOf(message.type)!.channel;
      const key = `${channel}|${message.type}`;
      const entry = counts.get(key) ?? { channel, type: message.type, n: 0 };
      entry.n++;
      counts.set(key, entry);
    }
    for (const [key, { channel, type }] of counts) before.set(key, await harness.processed(channel, type));
    // Sessions side by side, each in its own order — as concurrent agents publish them.
    await Promise.all(
      all.map(async (messages) => {
        for (const message of messages) {
          const channel = definitionOf(message.type)!.channel as SessionChannelId;
          await harness.bus.js.publish(publishSubject(channel, AGENT, message.session_id), encoder.encode(JSON.stringify(message)), { msgID: message.id });
        }
      }),
    );
    for (const [key, { channel, type, n }] of counts) await harness.waitProcessed(channel, type, before.get(key)! + n, 60_000);
    await harness.bus.nc.flush();
    for (const session of corpus) {
      reported.set(
        session.name,
        harness.recorder.messages.filter((m) => m.subject.startsWith('warden.pattern.') && m.body.session_id === sessionId(session.name)).map((m) => m.body as unknown as Reported),
      );
    }
    const detected: Detected[] = [...reported].flatMap(([name, reports]) => reports.map((r) => ({ session: name, type: r.payload.pattern_type, severity: r.payload.severity, shadow: r.payload.shadow })));
    process.stdout.write(`\nCorpus (${corpus.length} sessions) through the pattern-detector over NATS:\n${formatScores(score(corpus, detected))}\n`);
  }, 120_000);

  afterAll(() => harness.stop(), 30_000);

  it('finds every expected pattern (recall 1 for every type) and reports nothing a session does not expect (precision 1)', () => {
    const detected: Detected[] = [...reported].flatMap(([name, reports]) => reports.map((r) => ({ session: name, type: r.payload.pattern_type, severity: r.payload.severity, shadow: r.payload.shadow })));
    const scores = score(corpus, detected);
    expect(scores.filter((s) => s.recall < 1).map((s) => s.type)).toEqual([]);
    expect(scores.filter((s) => s.precision < 1).map((s) => s.type)).toEqual([]);
  });

  it('reports nothing above low severity for the clean sessions', () => {
    const clean = corpus.filter((s) => !s.expected_patterns.length);
    expect(clean.length).toBeGreaterThanOrEqual(5);
    const above = clean.flatMap((s) => reported.get(s.name)!.filter((r) => SEVERITIES.indexOf(r.payload.severity) > 0).map((r) => `${s.name}: ${r.payload.pattern_type}/${r.payload.severity}`));
    expect(above).toEqual([]);
  });

  it('publishes patterns that validate against libs/contracts, with evidence from the session and one report per episode and severity', () => {
    for (const [name, reports] of reported) {
      const session = corpus.find((s) => s.name === name)!;
      const ids = new Set(session.events.flatMap((e) => ('id' in e ? [e.id] : [])));
      const seen = new Set<string>();
      for (const report of reports) {
        expect(validateMessage(report)).toMatchObject({ ok: true });
        expect(report.payload.evidence_action_ids.length).toBeGreaterThan(0);
        expect(report.payload.evidence_action_ids.filter((id) => !ids.has(id))).toEqual([]);
        const key = `${report.payload.pattern_type}/${report.payload.episode}/${report.payload.severity}`;
        expect(seen.has(key)).toBe(false);
        seen.add(key);
      }
    }
  });

  it('gives resource throttling its growth figures', () => {
    const spirals = reported.get('resource-spiral-file-ops-and-servers')!.filter((r) => r.payload.pattern_type === 'resource_spiral');
    const spiral = spirals[spirals.length - 1]!;
    // Its context grew from a minute already past the floor: a spiral that lasts, not one minute's burst.
    expect(['high', 'critical']).toContain(spiral.payload.severity);
    expect(spiral.payload.details).toMatchObject({
      growth: { file_operations_per_min: expect.any(Number), tokens_per_min: expect.any(Number), cost_usd_per_min: expect.any(Number), background_processes: expect.any(Number) },
      current: { file_operations_per_min: expect.any(Number), tokens_per_min: expect.any(Number), cost_usd_per_min: expect.any(Number), background_processes: expect.any(Number) },
    });
    // Six indexers started in the background (under the floor of eight measured on real sessions), and a
    // context that grew several times over within the minute.
    expect(spiral.payload.details['current']).toMatchObject({ background_processes: 6 });
    expect((spiral.payload.details['growth'] as Record<string, number>)['tokens_per_min']).toBeGreaterThan(2);
    expect(spiral.payload.details['spiralling']).toEqual(expect.arrayContaining(['tokens_per_min']));
  });

  it('matches the known issues of the project knowledge file', () => {
    const trap = reported.get('installation-trap-playwright-known-issue')!.find((r) => r.payload.pattern_type === 'installation_trap')!;
    expect(trap.payload.details['known_issue']).toMatchObject({ symptom: 'Failed to connect to Playwright server', escalation_trap: 'playwright install' });
    expect(trap.payload.confidence).toBeGreaterThanOrEqual(0.9);
  });
});
