import { baseName, foldPathSegments, homeOf, isHomeRoot, isStreamPath, isTempPath, isUnder, isWindowsPath, mountedHome, pathsNamedIn, resolvePath, throughMount, tildeForm } from './paths.js';

describe('resolvePath on Linux and macOS', () => {
  it('takes relative paths from the working directory and folds . and ..', () => {
    expect(resolvePath('src/../README.md', '/work/app')).toBe('/work/app/README.md');
    expect(resolvePath('./a/./b/', '/work/app')).toBe('/work/app/a/b');
    expect(resolvePath('../other/x', '/work/app')).toBe('/work/other/x');
    expect(resolvePath('/etc/../../var//log/', '/work/app')).toBe('/var/log');
    expect(resolvePath('', '/work/app')).toBe('/work/app');
  });

  it("reads a path through a process's root as the path it reaches", () => {
    expect(resolvePath('/proc/1/root/etc/shadow', '/work/app')).toBe('/etc/shadow');
    expect(resolvePath('/proc/self/root/', '/work/app')).toBe('/');
    expect(resolvePath('/proc/1/rootfs/x', '/work/app')).toBe('/proc/1/rootfs/x');
    expect(resolvePath('/proc/1/environ', '/work/app')).toBe('/proc/1/environ');
  });

  it('keeps a relative path relative without a working directory', () => {
    expect(resolvePath('src/x.ts')).toBe('src/x.ts');
    expect(resolvePath('./src/../x.ts')).toBe('x.ts');
  });

  it('writes ~ and $HOME out as the home the working directory lies in', () => {
    expect(resolvePath('~/.ssh/id_rsa', '/home/ann/app')).toBe('/home/ann/.ssh/id_rsa');
    expect(resolvePath('$HOME/.aws/credentials', '/Users/ann/dev/app')).toBe('/Users/ann/.aws/credentials');
    expect(resolvePath('${HOME}/x', '/root/project')).toBe('/root/x');
    expect(resolvePath('~', '/home/ann/app')).toBe('/home/ann');
  });

  it('keeps ~ when no home shows, and takes an explicit home over the working directory', () => {
    expect(resolvePath('~/.aws/credentials', '/work/app')).toBe('~/.aws/credentials');
    expect(resolvePath('$HOME/.aws/credentials')).toBe('~/.aws/credentials');
    expect(resolvePath('~/x', '/tmp/build', '/home/ann')).toBe('/home/ann/x');
    expect(resolvePath('notes.md', '~/dev')).toBe('~/dev/notes.md');
  });

  it("reads ~+ as bash's working directory", () => {
    expect(resolvePath('~+/file.txt', '/home/ann/app')).toBe('/home/ann/app/file.txt');
    expect(resolvePath('~+', '/home/ann/app')).toBe('/home/ann/app');
  });

  it("reads ~alice as alice's home next to the session's", () => {
    expect(resolvePath('~alice/x', '/home/ann/app')).toBe('/home/alice/x');
    expect(resolvePath('~alice/x', '/Users/ann/app')).toBe('/Users/alice/x');
    expect(resolvePath('~alice')).toBe('/home/alice');
  });

  it('leaves /c/… alone outside Windows', () => {
    expect(resolvePath('/c/Users/me', '/home/ann/app')).toBe('/c/Users/me');
  });
});

describe('resolvePath on Windows', () => {
  const cwd = 'C:\\Users\\Me\\App';

  it('writes drive paths in lower case with forward slashes, whichever slashes they had', () => {
    expect(resolvePath('C:\\Users\\Me\\App\\src\\Main.ts')).toBe('c:/users/me/app/src/main.ts');
    expect(resolvePath('C:/Users/Me/App/src/Main.ts')).toBe('c:/users/me/app/src/main.ts');
    expect(resolvePath('c:\\users\\me\\app\\..\\Other\\')).toBe('c:/users/me/other');
    expect(resolvePath('D:\\')).toBe('d:/');
    expect(resolvePath('\\\\?\\C:\\Very\\Long')).toBe('c:/very/long');
  });

  it("reads Git Bash's /c/… as the drive, in a session on Windows", () => {
    expect(resolvePath('/c/Users/me/App/x.ts', cwd)).toBe('c:/users/me/app/x.ts');
    expect(resolvePath('/d', cwd)).toBe('d:/');
    // Git Bash's own tree stays a POSIX path.
    expect(resolvePath('/tmp/build.log', cwd)).toBe('/tmp/build.log');
  });

  it('takes relative paths from the working directory, backslashes or not', () => {
    expect(resolvePath('src\\Main.ts', cwd)).toBe('c:/users/me/app/src/main.ts');
    expect(resolvePath('..\\Other\\x', cwd)).toBe('c:/users/me/other/x');
    expect(resolvePath('\\Windows\\System32', cwd)).toBe('c:/windows/system32');
  });

  it('writes ~, $HOME and %USERPROFILE% out as the Windows home', () => {
    expect(resolvePath('~/.claude/plans/x.md', cwd)).toBe('c:/users/me/.claude/plans/x.md');
    expect(resolvePath('~\\AppData\\Local\\Temp\\x', cwd)).toBe('c:/users/me/appdata/local/temp/x');
    expect(resolvePath('$HOME/.gitconfig', cwd)).toBe('c:/users/me/.gitconfig');
    expect(resolvePath('%USERPROFILE%\\.ssh\\id_rsa', cwd)).toBe('c:/users/me/.ssh/id_rsa');
    expect(resolvePath('$env:USERPROFILE\\x', cwd)).toBe('c:/users/me/x');
  });

  it('reads UNC shares as //server/share', () => {
    expect(resolvePath('\\\\NAS\\Share\\Reports\\Q3.xlsx')).toBe('//nas/share/reports/q3.xlsx');
    expect(resolvePath('//nas/share/x', cwd)).toBe('//nas/share/x');
    expect(resolvePath('docs\\a.md', '\\\\nas\\share\\project')).toBe('//nas/share/project/docs/a.md');
  });

  it('gives the same path however it was written', () => {
    const forms = ['C:\\Users\\Me\\App\\src\\x.ts', 'c:/users/me/app/src/x.ts', '/c/Users/Me/App/src/x.ts', 'src\\x.ts', './src/x.ts', '~/App/src/x.ts', '%USERPROFILE%\\app\\SRC\\x.ts'];
    expect(new Set(forms.map((p) => resolvePath(p, cwd)))).toEqual(new Set(['c:/users/me/app/src/x.ts']));
  });
});

describe('the canonical form', () => {
  it('is a fixed point: resolving a resolved path gives it back', () => {
    const cases: [string, string | undefined][] = [
      ['~/x', '/home/ann/app'],
      ['src/x', '/work/app'],
      ['C:\\Users\\Me\\x', undefined],
      ['/c/x', 'C:\\app'],
      ['\\\\nas\\share\\x', 'C:\\app'],
      ['~/x', '/work/app'],
    ];
    for (const [raw, cwd] of cases) {
      const once = resolvePath(raw, cwd);
      expect(resolvePath(once, cwd)).toBe(once);
    }
  });

  it('folds segments only when there is something to fold', () => {
    expect(foldPathSegments('/a/b')).toBe('/a/b');
    expect(foldPathSegments('/a/.b/..c')).toBe('/a/.b/..c');
    expect(foldPathSegments('~/../x')).toBe('~/../x');
    expect(foldPathSegments('/..')).toBe('/');
    expect(foldPathSegments('.')).toBe('.');
  });
});

describe('a working directory on a mount its home also reaches', () => {
  it('reads the home-relative spelling of the directory as the directory (a mounted disk, macOS’s data volume)', () => {
    const cwd = '/home/moxa/sda2/home/moxa/WORK/ci-project';
    expect(mountedHome(cwd)).toEqual({ prefix: '/home/moxa/sda2', alias: '/home/moxa/WORK/ci-project' });
    expect(throughMount('/home/moxa/WORK/ci-project/ci-pipeline/bvt.yml', cwd)).toBe('/home/moxa/sda2/home/moxa/WORK/ci-project/ci-pipeline/bvt.yml');
    expect(throughMount('/System/Volumes/Data/Users/ann/app/src', '/System/Volumes/Data/Users/ann/app')).toBe('/System/Volumes/Data/Users/ann/app/src');
    expect(throughMount('/Users/ann/app/src/a.ts', '/System/Volumes/Data/Users/ann/app')).toBe('/System/Volumes/Data/Users/ann/app/src/a.ts');
  });

  it('maps nothing else: other paths of the home, directories on no mount, a folder named home in another user’s tree', () => {
    const cwd = '/home/moxa/sda2/home/moxa/WORK/ci-project';
    expect(throughMount('/home/moxa/.ssh/config', cwd)).toBe('/home/moxa/.ssh/config');
    expect(throughMount('/home/moxa/WORK/other/x', cwd)).toBe('/home/moxa/WORK/other/x');
    expect(mountedHome('/home/dev/app')).toBeUndefined();
    expect(mountedHome('/home/ann/projects/home/bob/site')).toBeUndefined();
    expect(throughMount('/home/bob/site/index.html', '/home/ann/projects/home/bob/site')).toBe('/home/bob/site/index.html');
  });
});

describe('homes', () => {
  it('knows the home a working directory lies in', () => {
    expect(homeOf('/home/ann/dev/app')).toBe('/home/ann');
    expect(homeOf('/Users/ann/app')).toBe('/Users/ann');
    expect(homeOf('/root/app')).toBe('/root');
    expect(homeOf('C:\\Users\\Ann\\app')).toBe('c:/users/ann');
    expect(homeOf('/work/app')).toBeUndefined();
    expect(homeOf(undefined)).toBeUndefined();
  });

  it('writes a path under a home from ~, and knows a whole home', () => {
    expect(tildeForm('/home/ann/.claude/x')).toBe('~/.claude/x');
    expect(tildeForm('c:/users/ann/appdata/local/temp/x')).toBe('~/appdata/local/temp/x');
    expect(tildeForm('/work/app')).toBe('/work/app');
    expect(['~', '/home/ann', '/Users/ann/', '/root', 'c:/users/ann', '/'].every(isHomeRoot)).toBe(true);
    expect(isHomeRoot('/home/ann/app')).toBe(false);
  });
});

describe('pathsNamedIn', () => {
  it('finds home, absolute, Windows and share paths in a task, resolved', () => {
    expect(pathsNamedIn('Read ~/notes/plan.md and /Users/ann/brief.md, then write C:\\data\\out.csv.', '/Users/ann/app')).toEqual([
      '/Users/ann/notes/plan.md',
      '/Users/ann/brief.md',
      'c:/data/out.csv',
    ]);
    expect(pathsNamedIn('see \\\\nas\\share\\q3.xlsx')).toEqual(['//nas/share/q3.xlsx']);
    expect(pathsNamedIn('請閱讀/Users/ann/brief.md。')).toEqual(['/Users/ann/brief.md']);
  });

  it('finds any absolute path, and leaves out URLs and words', () => {
    expect(pathsNamedIn('Build it in /work/reports-v2 and add its host to /etc/hosts.')).toEqual(['/work/reports-v2', '/etc/hosts']);
    expect(pathsNamedIn('See https://example.com/home/x and //cdn/x, and/or wait ~5 min')).toEqual([]);
    expect(pathsNamedIn(undefined)).toEqual([]);
  });

  it('reads the file of an error location pasted from a terminal, without its line and column', () => {
    expect(pathsNamedIn('/home/deder/.zprofile:20: no such file or directory: /opt/homebrew/bin/brew\n/home/deder/.fzf.zsh:7: command not found: fzf')).toEqual([
      '/home/deder/.zprofile',
      '/opt/homebrew/bin/brew',
      '/home/deder/.fzf.zsh',
    ]);
    expect(pathsNamedIn('TypeError at /work/app/src/x.ts:12:5.')).toEqual(['/work/app/src/x.ts']);
  });

  it('reads a path written in quotes as the path inside them', () => {
    expect(resolvePath('"C:\\Program Files\\App\\x.ini"')).toBe('c:/program files/app/x.ini');
    expect(resolvePath("'src/a b.ts'", '/work/app')).toBe('/work/app/src/a b.ts');
  });
});

describe('small path facts', () => {
  it('knows streams, temp files, Windows paths and what lies under what', () => {
    expect(['/dev/null', 'nul', 'NUL:', '\\\\.\\nul', '&2', '/dev/fd/3', '$null', '$NULL'].every(isStreamPath)).toBe(true);
    expect(isStreamPath('/dev/sda')).toBe(false);
    expect(isTempPath('/tmp/x')).toBe(true);
    expect(isTempPath('/tmp')).toBe(false);
    expect(['C:\\x', 'c:/x', 'C:', '\\\\nas\\share'].every(isWindowsPath)).toBe(true);
    expect(isWindowsPath('/c/x')).toBe(false);
    expect(isUnder('/work/app/src', '/work/app')).toBe(true);
    expect(isUnder('/work/apple', '/work/app')).toBe(false);
    expect(baseName('/work/app/src/x.ts')).toBe('x.ts');
  });
});
