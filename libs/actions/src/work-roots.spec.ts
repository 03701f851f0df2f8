import { isFileOfHome, scopeIsHome, workRootOf, worktreesAddedIn } from './work-roots.js';

describe('a session started in its home directory', () => {
  it('is told by its working directory and expected paths', () => {
    expect(scopeIsHome('/root', ['/root/**'])).toBe(true);
    expect(scopeIsHome('C:\\Users\\me', ['C:\\Users\\me\\**'])).toBe(true);
    expect(scopeIsHome('/home/ann/app', ['/home/ann/app/**'])).toBe(false);
    expect(scopeIsHome('/home/ann', ['/home/ann/app/**'])).toBe(false);
  });

  it.each([
    ['/var/www/app', '/var/www/app'],
    ['/var/www/app/src/App.tsx', '/var/www/app/src'],
    ['/home/ann/code/site', '/home/ann/code/site'],
    ['c:/users/me/documents/proj/readme.md', 'c:/users/me/documents/proj'],
  ])('works on what it reads, lists, enters or creates: %s', (path, root) => {
    expect(workRootOf(path)).toBe(root);
  });

  it.each(['/', '/root', '/home/ann', '/home/ann/.ssh', '/home/ann/.claude/settings.json', '/etc', '/etc/nginx', '/usr/lib', '/var', 'c:/users/me', 'c:/windows/system32', '/home/ann/notes.md'])(
    'never works on a whole home, its dot-directories or the system: %s',
    (path) => {
      expect(workRootOf(path)).toBeUndefined();
    },
  );

  it('writes its own files directly in the home, not its dot-files, directories or what lies in them', () => {
    expect(isFileOfHome('/home/ann/notes.md', '/home/ann')).toBe(true);
    expect(isFileOfHome('c:/users/me/report.docx', 'c:/users/me')).toBe(true);
    for (const path of ['/home/ann/.bashrc', '/home/ann/.env.local', '/home/ann/Documents', '/home/ann/Documents/a.md', '/home/bob/notes.md', '/home/ann']) {
      expect(isFileOfHome(path, '/home/ann')).toBe(false);
    }
  });
});

describe('worktrees a command adds', () => {
  it('reads the directory of git worktree add, after its options, against git -C or the working directory', () => {
    expect(worktreesAddedIn('rm -rf ../fix-a && git worktree add ../fix-a fix-a', '/Users/ann/code/app')).toEqual(['/Users/ann/code/fix-a']);
    expect(worktreesAddedIn('git worktree add -b feat/x "../app x" main', '/work/app')).toEqual(['/work/app x']);
    expect(worktreesAddedIn('git -C /work/app worktree add --detach -f .worktrees/hotfix', '/tmp')).toEqual(['/work/app/.worktrees/hotfix']);
    expect(worktreesAddedIn('git worktree add ~/wt/one && git worktree add ../two', '/home/dev/app')).toEqual(['/home/dev/wt/one', '/home/dev/two']);
  });

  it('finds none in other worktree commands or in words', () => {
    expect(worktreesAddedIn('git worktree list', '/work/app')).toEqual([]);
    expect(worktreesAddedIn('git worktree remove ../fix-a --force', '/work/app')).toEqual([]);
    expect(worktreesAddedIn('echo use a worktree', '/work/app')).toEqual([]);
  });
});
