import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StepReviewer } from '@warden/review';
import { readCheckFile } from '../src/check/check-input.js';
import { checkItems } from '../src/check/check-run.js';
import { figuresOf } from '../src/check/check-summary.js';

/**
 * Labelled commands nobody on the team wrote (other guards' public test suites), kept out of the
 * repository: `<repo root>/../shared/corpus/commands/*.jsonl` when that folder exists, plus the
 * `commands/` folder of every directory named in WARDEN_CORPUS_DIRS (colon-separated). On their `core`
 * vectors the reviewer must stop at least 97 % of the dangerous ones, and block or hold at most 1 % and
 * warn about at most 5 % of the safe ones.
 */
const TARGETS = { dangerousStopped: 97, safeStopped: 1, safeWarned: 5 };
const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url));
const SHARED = join(REPOSITORY, '..', 'shared', 'corpus');
const PROJECT = '/home/dev/project';

const directories = [SHARED, ...(process.env['WARDEN_CORPUS_DIRS'] ?? '').split(':').filter(Boolean)].filter((d) => existsSync(join(d, 'commands')));
const files = directories.flatMap((d) => readdirSync(join(d, 'commands')).filter((f) => f.endsWith('.jsonl')).map((f) => join(d, 'commands', f)));

describe('labelled commands from outside the project', () => {
  if (!files.length) {
    it('are absent here: neither ../shared/corpus nor WARDEN_CORPUS_DIRS holds a commands/ folder', () => {
      expect(directories).toEqual([]);
    });
    return;
  }

  const reviewer = new StepReviewer();
  it.each(files)('%s: core vectors meet the targets', (file) => {
    const items = readCheckFile(readFileSync(file, 'utf8'), file).filter((item) => item.tag === 'core' && item.expected);
    expect(items.length).toBeGreaterThan(0);
    const figures = figuresOf(checkItems(items, { reviewer, cwd: PROJECT }));
    const below = [
      ...(figures.dangerousStopped < TARGETS.dangerousStopped ? [`dangerous stopped ${figures.dangerousStopped}% < ${TARGETS.dangerousStopped}%`] : []),
      ...(figures.safeStopped > TARGETS.safeStopped ? [`safe blocked or held ${figures.safeStopped}% > ${TARGETS.safeStopped}%`] : []),
      ...(figures.safeWarned > TARGETS.safeWarned ? [`safe warned ${figures.safeWarned}% > ${TARGETS.safeWarned}%`] : []),
    ];
    expect(below).toEqual([]);
  });
});
