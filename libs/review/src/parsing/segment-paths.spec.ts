import { optionValues } from './segment-paths.js';

describe('optionValues', () => {
  const output = { short: 'o', long: '--output' };
  it.each([
    [['curl', '-o', 'a.tgz', 'https://x'], ['a.tgz']],
    [['curl', '-sSLo', 'a.tgz', 'https://x'], ['a.tgz']],
    [['curl', '-sSLo/etc/cron.d/job', 'https://x'], ['/etc/cron.d/job']],
    [['curl', '-oa.tgz', 'https://x'], ['a.tgz']],
    [['curl', '--output', 'a.tgz'], ['a.tgz']],
    [['curl', '--output=a.tgz'], ['a.tgz']],
    [['kubectl', 'get', 'secret', '-ojson'], ['json']],
    [['curl', '-o', '-', 'https://x'], []],
    // A header's or a form's value is not the output file.
    [['curl', '-HX-Token: abc', 'https://x'], []],
    [['curl', '-HContent-Type: application/json', 'https://x'], []],
    [['curl', '-dusername=bob', 'https://x'], []],
  ])('%j', (argv, expected) => {
    expect(optionValues(argv, output)).toEqual(expected);
  });

  it('reads wget -qO-style clusters with the option in capitals', () => {
    expect(optionValues(['wget', '-qO/etc/profile.d/x.sh', 'https://x'], { short: 'O', long: '--output-document' })).toEqual(['/etc/profile.d/x.sh']);
    expect(optionValues(['wget', '-qO-', 'https://x'], { short: 'O', long: '--output-document' })).toEqual([]);
  });
});
