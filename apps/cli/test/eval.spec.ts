import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { runWarden } from './hook-suite.fixture.js';

/**
 * The evaluation gate: `warden eval` over the project's own labelled sessions, and over the real recorded
 * sessions of ../shared/corpus/real and of every folder named in WARDEN_CORPUS_DIRS (each laid out like
 * ../shared/corpus, with a real/ folder), held to test/corpus/real-sessions.labels.yaml. A new false alarm
 * or a new miss fails the build; the summary line goes to the log.
 */
const LABELS = join(WORKSPACE_ROOT, 'test/corpus/real-sessions.labels.yaml');
const realFolders = [join(WORKSPACE_ROOT, '../shared/corpus'), ...(process.env['WARDEN_CORPUS_DIRS'] ?? '').split(':').filter(Boolean)]
  .map((dir) => join(dir, 'real'))
  .filter((dir) => existsSync(dir));

async function evaluation(args: string[]) {
  const run = await runWarden(['eval', ...args, '--json']);
  const result = JSON.parse(run.stdout) as { summary: Record<string, number>; sessions: { name: string; score: { falseAlarms: { what: string; evidence: string }[]; misses: { what: string; known?: string }[] } }[] };
  const faults = result.sessions.flatMap((s) => [
    ...s.score.falseAlarms.map((f) => `${s.name}: false alarm: ${f.what} (${f.evidence.slice(0, 160)})`),
    ...s.score.misses.filter((m) => !m.known).map((m) => `${s.name}: miss: ${m.what}`),
  ]);
  return { code: run.code, summary: result.summary, faults };
}

describe('warden eval as the gate of every change to what Warden flags', () => {
  it('passes the project\'s own labelled sessions and the recorded sample sessions', async () => {
    const { code, summary, faults } = await evaluation([join(WORKSPACE_ROOT, 'test/corpus/sessions'), join(WORKSPACE_ROOT, 'examples/sessions'), '--labels', join(WORKSPACE_ROOT, 'examples/sessions/labels.yaml'), '--labels', join(WORKSPACE_ROOT, 'test/corpus/sessions.labels.yaml')]);
    console.log(`project corpus: ${JSON.stringify(summary)}`);
    expect(faults).toEqual([]);
    expect(code).toBe(0);
  }, 120_000);

  // Defined where the corpus is (CI has ../shared/corpus); a clone without it has nothing to hold.
  if (realFolders.length) {
    it(`passes the real recorded sessions (${realFolders.join(', ')})`, async () => {
      const { code, summary, faults } = await evaluation([...realFolders, '--labels', LABELS]);
      console.log(`real sessions: ${JSON.stringify(summary)}`);
      expect(faults).toEqual([]);
      expect(summary['ordinaryEmergencyStops']).toBe(0);
      expect(summary['ordinaryBreakerTrips']).toBe(0);
      expect(summary['ordinaryPatternsAboveLow']).toBe(0);
      // At most 1 % of the ordinary sessions' actions stopped, each one justified in the labels.
      expect(summary['ordinaryStopped']! - summary['ordinaryStoppedJustified']!).toBe(0);
      expect(summary['ordinaryStopped']! / summary['ordinaryActions']!).toBeLessThanOrEqual(0.01);
      expect(code).toBe(0);
    }, 120_000);
  }
});
