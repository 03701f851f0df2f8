import { requiredTextOf } from './pattern-text.js';

describe('requiredTextOf', () => {
  it.each([
    [/\bmigrate-3\b/, 'migrate-3'],
    [/^terraform apply/, 'terraform apply'],
    [/deploy\.sh --prod/, 'deploy.sh --prod'],
    [/ab+c/, 'ab'],
    [/colou?r/, 'colo'],
    [/teamctl\d+ deploy/, 'teamctl'],
    [/x{100}yz/, ''],
    [/abc{2}/, 'ab'],
    [/drop.*table/, 'table'],
    [/(?:foo)bar/, ''],
    [/prefix[0-9]/, 'prefix'],
    [/\x41BC/, ''],
    [/a\.b\/c\*?/, 'a.b/c'],
    [/delete|destroy/, ''],
    [/DROP TABLE/i, ''],
    [/^rm -rf \/$/m, ''],
  ])('%s → %j', (pattern, text) => {
    expect(requiredTextOf(pattern)).toBe(text);
  });

  it('names only text that every match holds', () => {
    const cases: [RegExp, string[]][] = [
      [/\bmigrate-3\b/, ['run migrate-3 now', 'migrate-3']],
      [/ab+c/, ['abbbc', 'xabcx']],
      [/colou?r/, ['color', 'colour']],
      [/abc{2}/, ['abcc', 'abccc']],
      [/a\.b\/c\*?/, ['a.b/c', 'a.b/c*']],
      [/^x+y$/, ['xxxy']],
    ];
    for (const [pattern, texts] of cases) {
      for (const text of texts) {
        expect(pattern.test(text)).toBe(true);
        expect(text.includes(requiredTextOf(pattern))).toBe(true);
      }
    }
  });
});
