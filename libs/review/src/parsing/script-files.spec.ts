import { scriptFiles } from './script-files.js';

const files = (argv: string[]) => scriptFiles(argv[0]!, argv);

describe('files a sed or awk program opens', () => {
  it.each([
    [['sed', 'w /etc/passwd', 'in.txt'], { read: [], written: ['/etc/passwd'] }],
    [['sed', '-n', '1,5w out.txt', 'in.txt'], { read: [], written: ['out.txt'] }],
    [['sed', '-new /etc/passwd', 'in.txt'], { read: [], written: ['/etc/passwd'] }],
    [['sed', '-e', 's/a/b/gw changed.txt', 'in.txt'], { read: [], written: ['changed.txt'] }],
    [['sed', 's|a|b|w /etc/cron.d/x', 'in.txt'], { read: [], written: ['/etc/cron.d/x'] }],
    [['sed', '--expression=$r /etc/shadow', 'in.txt'], { read: ['/etc/shadow'], written: [] }],
    [['sed', '/^#include/r header.h\np', 'a.c'], { read: ['header.h'], written: [] }],
    [['awk', '{print > "/etc/sudoers"}', 'in'], { read: [], written: ['/etc/sudoers'] }],
    [['awk', '-F,', 'BEGIN{while((getline l < "/etc/shadow")>0) print l}'], { read: ['/etc/shadow'], written: [] }],
  ])('%j', (argv, expected) => {
    expect(files(argv)).toEqual(expected);
  });

  it.each([
    [['sed', '-i', 's/w /x/g', 'a.txt']],
    [['sed', 's/\\/r here/\\/w there/', 'a.txt']],
    [['sed', '/wait/d; /read/d', 'a.txt']],
    [['sed', '1i\\\nwrite me', 'a.txt']],
    [['sed', 'w /dev/stdout', 'a.txt']],
    [['sed', '-f', 'script.sed', 'a.txt']],
    [['awk', '$1 > 5 {print $2}', 'a.txt']],
    [['awk', '{print > "/dev/stderr"}', 'a.txt']],
    [['grep', 'w /etc/passwd', 'a.txt']],
  ])('none in %j', (argv) => {
    expect(files(argv)).toBeNull();
  });
});
