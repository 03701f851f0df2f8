import { parseAction } from './parsed-action.js';
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

describe('the files dd and archive extraction write', () => {
  const written = (command: string) => parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, '/work/app').writtenPaths;
  it.each([
    ['dd if=/dev/urandom of=/boot/vmlinuz', ['/boot/vmlinuz']],
    ['dd if=build/app.img of=out/app.img bs=4M', ['/work/app/out/app.img']],
    ['tar xzf x.tgz -C /usr/local/bin', ['/usr/local/bin']],
    ['tar --extract --file=x.tar --directory=/opt/tool', ['/opt/tool']],
    ['curl -sL https://x/t.tgz | tar -xz -C vendor', ['/work/app/vendor']],
    ['unzip -o site.zip -d public', ['/work/app/public']],
    ['tar czf out.tgz -C src .', []],
    ['tar tzf x.tgz -C /usr', []],
    ['unzip -l site.zip -d public', []],
  ])('%s writes %j', (command, paths) => {
    expect(written(command)).toEqual(paths);
  });
});
