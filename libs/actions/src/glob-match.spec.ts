import picomatch from 'picomatch';
import { globMatcher, literalPrefix, requiredText, type GlobOptions } from './glob-match.js';

/** A small linear congruential generator: the same globs and texts on every run. */
function generator(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    // The low bits of this generator repeat quickly: the high ones are used.
    return (state >>> 12) % n;
  };
}

/** Ordinary characters, stars and slashes: the globs whose required text is used. */
const PLAIN = ['a', 'b', 'A', '0', ' ', '.', '-', '_', ':', '~', '*', '/', '%', '=', ',', ';'];
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

describe('requiredText', () => {
  it('is the longest run of ordinary text between stars and slashes', () => {
    expect(requiredText('**/protected-3/**')).toBe('protected-3');
    expect(requiredText('/work/*/generated-files/*.ts')).toBe('generated-files');
    expect(requiredText('*.ts')).toBe('.ts');
  });

  it('is empty where picomatch reads a character specially or drops a leading ./', () => {
    expect(requiredText('**/{a,b}-files/**')).toBe('');
    expect(requiredText('./build*')).toBe('');
    expect(picomatch('./build*', { dot: true })('build')).toBe(true);
  });
});

describe('globMatcher', () => {
  it('matches exactly what picomatch matches, for globs and texts of every shape', () => {
    const random = generator(20_241_124);
    let alphabet = ALPHABET;
    const text = (length: number) => Array.from({ length: random(length) + 1 }, () => alphabet[random(alphabet.length)]).join('');
    const shapes = [() => `ab${text(6)}`, () => text(8), () => `a b${text(4)}/**`, () => `ab/${text(3)}/**${text(2)}`, () => `a:b${text(10)}`, () => `**/${text(5)}/**`, () => `${text(3)}*${text(4)}`];
    // A text like the glob with one character changed: the near misses a prefix or required-text check could get wrong.
    const nearMiss = (glob: string) => {
      const filled = glob.replace(/\*+/g, () => text(2));
      const at = random(Math.max(1, filled.length));
      return `${filled.slice(0, at)}${random(2) ? '' : text(1)}${filled.slice(at + 1)}`;
    };
    let compared = 0;
    let matched = 0;
    for (let i = 0; i < 3000; i++) {
      alphabet = random(2) ? ALPHABET : PLAIN;
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
        const texts = [glob, glob.replace(/[*?]/g, ''), glob.replace(/[*?]/g, 'a/b'), glob.toUpperCase(), glob.toLowerCase(), glob.replace(/\/\*\*.*$/, ''), glob.slice(0, -1), `${glob}x`, text(8), `ab${text(6)}`, nearMiss(glob), nearMiss(glob)];
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
