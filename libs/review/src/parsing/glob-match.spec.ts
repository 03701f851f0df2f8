import picomatch from 'picomatch';
import { globMatcher, literalPrefix, type GlobOptions } from './glob-match.js';

/** A small linear congruential generator: the same globs and texts on every run. */
function generator(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
}

const ALPHABET = ['a', 'b', 'A', 'B', 'k', 'K', '0', ' ', '/', '.', '-', '_', ':', ';', '=', '%', ',', '*', '?', '{', '}', '[', ']', '!', '(', ')', '|', '+', '@', '\\', '~', '$', '^', '#', "'", '"', '&', '\u0131', '\u017f', '\u212a'];
const OPTIONS: GlobOptions[] = [{ bash: true, dot: true }, { dot: true }, { dot: true, nocase: true }];

describe('literalPrefix', () => {
  it('is the leading ordinary text of a glob', () => {
    expect(literalPrefix('teamctl3 deploy*')).toBe('teamctl3 deploy');
    expect(literalPrefix('https://svc-1.internal.example.com/**')).toBe('https://svc-1.internal.example.com');
    expect(literalPrefix('git push')).toBe('git push');
    expect(literalPrefix('*terraform apply*')).toBe('');
  });

  it('leaves out a slash before a globstar, which may match nothing, and gives up on a stray parenthesis', () => {
    expect(literalPrefix('work.app/**')).toBe('work.app');
    expect(picomatch('work.app/**', { dot: true })('work.app')).toBe(true);
    expect(literalPrefix('ab)|(c')).toBe('');
  });
});

describe('globMatcher', () => {
  it('matches exactly what picomatch matches, for globs and texts of every shape', () => {
    const random = generator(20_241_124);
    const text = (length: number) => Array.from({ length: random(length) + 1 }, () => ALPHABET[random(ALPHABET.length)]).join('');
    const shapes = [() => `ab${text(6)}`, () => text(8), () => `a b${text(4)}/**`, () => `ab/${text(3)}/**${text(2)}`, () => `a:b${text(10)}`];
    let compared = 0;
    let matched = 0;
    for (let i = 0; i < 3000; i++) {
      const glob = shapes[random(shapes.length)]!();
      for (const options of OPTIONS) {
        let reference: (text: string) => boolean;
        try {
          reference = picomatch(glob, options);
        } catch {
          expect(() => globMatcher([glob], options)).toThrow();
          continue;
        }
        const matcher = globMatcher([glob], options);
        const texts = [glob, glob.replace(/[*?]/g, ''), glob.replace(/[*?]/g, 'a/b'), glob.toUpperCase(), glob.toLowerCase(), glob.replace(/\/\*\*.*$/, ''), glob.slice(0, -1), `${glob}x`, text(8), `ab${text(6)}`];
        for (const candidate of texts) {
          const expected = !!reference(candidate);
          if (matcher(candidate) !== expected) throw new Error(`${JSON.stringify(glob)} ${JSON.stringify(options)} on ${JSON.stringify(candidate)}: picomatch says ${expected}`);
          compared++;
          if (expected) matched++;
        }
      }
    }
    // Both outcomes are well represented, so the comparison says something about each.
    expect(matched).toBeGreaterThan(compared / 4);
    expect(compared - matched).toBeGreaterThan(compared / 4);
  });

  it('takes any of several globs, case-insensitively with nocase', () => {
    const matches = globMatcher(['mcp__github__*', 'Bash'], { dot: true, nocase: true });
    expect(matches('mcp__GitHub__create_issue')).toBe(true);
    expect(matches('bash')).toBe(true);
    expect(matches('mcp__gitlab__x')).toBe(false);
  });
});
