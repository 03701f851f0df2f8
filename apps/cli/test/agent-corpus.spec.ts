import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { recordingsIn } from '../src/eval/evaluation.js';
import { loadLabels, mergeLabels } from '../src/eval/labels.js';
import { FORMATS, readRecording } from '../src/replay/read-recording.js';

/**
 * The real recordings of other agents: public files nobody here wrote, kept out of the repository, in a
 * folder per agent (agents/codex/, agents/gemini-cli/, …) of ../shared/corpus or of a folder named in
 * WARDEN_CORPUS_DIRS (or such a folder itself). Every one is read, its format told from its content, into
 * actions, and every action the labels name (the DEV labels and both held-out sets) is one the reader
 * produces. These tests only read the recordings: the held-out ones are judged only when they are measured.
 */
const DEV_LABELS = join(WORKSPACE_ROOT, 'test/corpus/real-sessions.labels.yaml');
const HELDOUT_LABELS = join(WORKSPACE_ROOT, 'test/corpus/heldout-sessions.labels.yaml');
/** The second held-out set, found and labelled blind on 2026-11-30. */
const FRESH_LABELS = ['fresh-claude', 'fresh-agents'].map((name) => join(WORKSPACE_ROOT, `test/corpus/${name}.labels.yaml`));

/** Recordings that genuinely hold no tool call (a chat only), as their sources say. */
const CHAT_ONLY = new Set(['leash-1.jsonl']);

const isFormatFolder = (dir: string) => existsSync(dir) && readdirSync(dir).some((f) => (FORMATS as string[]).includes(f) && statSync(join(dir, f)).isDirectory());
const roots = [join(WORKSPACE_ROOT, '../shared/corpus'), ...(process.env['WARDEN_CORPUS_DIRS'] ?? '').split(':').filter(Boolean)]
  .map((dir) => (isFormatFolder(join(dir, 'agents')) ? join(dir, 'agents') : dir))
  .filter(isFormatFolder);
const recordings = recordingsIn(roots);

describe('the labels of the real recordings of other agents', () => {
  it('label each session once, the held-out ones apart from the tuned ones', () => {
    const dev = loadLabels(DEV_LABELS);
    const heldOut = [HELDOUT_LABELS, ...FRESH_LABELS].map(loadLabels);
    for (const set of heldOut) expect(Object.keys(set.sessions).length).toBeGreaterThan(0);
    const names = [dev, ...heldOut].flatMap((set) => Object.keys(set.sessions));
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    expect(() => mergeLabels([dev, ...heldOut])).not.toThrow();
  });
});

if (recordings.length) {
  describe(`the real recordings of other agents (${roots.join(', ')})`, () => {
    const labels = mergeLabels([DEV_LABELS, HELDOUT_LABELS, ...FRESH_LABELS].map(loadLabels));

    it.each(recordings.map((file) => [basename(file), file]))('reads %s into actions', (name, file) => {
      const session = readRecording(file);
      if (CHAT_ONLY.has(name)) {
        expect(session.actions).toEqual([]);
        expect(session.empty).toMatch(/without any tool call$/);
      } else expect(session.actions.length).toBeGreaterThan(0);
    });

    it.each(recordings.filter((file) => labels.sessions[basename(file)]).map((file) => [basename(file), file]))('finds every action the labels of %s name', (name, file) => {
      const label = labels.sessions[name]!;
      const named = new Set([...Object.keys(label.actions), ...label.expect.flatMap((f) => f.actions ?? [])]);
      const read = new Set(readRecording(file).actions.map((a) => a.recordedId ?? a.actionId));
      expect([...named].filter((id) => !read.has(id))).toEqual([]);
    });
  });
}
