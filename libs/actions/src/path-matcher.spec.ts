import { pathMatcher } from './path-matcher.js';
import { resolvePath } from './paths.js';

describe('pathMatcher', () => {
  it("matches the reviewer's always-in-scope globs (deploy/reviewer/reviewer.yaml) on Linux, macOS and Windows", () => {
    const inScope = pathMatcher(['/tmp/**', '/var/tmp/**', '/private/tmp/**', '/private/var/folders/**', '/var/folders/**', '~/.claude/**', '/dev/null']);
    expect(inScope('/tmp/build/x.log')).toBe(true);
    expect(inScope('/dev/null')).toBe(true);
    expect(inScope(resolvePath('~/.claude/plans/p.md', '/home/ann/app'))).toBe(true);
    expect(inScope(resolvePath('~/.claude/plans/p.md', '/Users/ann/app'))).toBe(true);
    expect(inScope(resolvePath('C:\\Users\\Ann\\.claude\\plans\\p.md', 'C:\\Users\\Ann\\app'))).toBe(true);
    expect(inScope(resolvePath('~/.claude/plans/p.md', '/work/app'))).toBe(true);
    expect(inScope('/home/ann/.bashrc')).toBe(false);
    expect(inScope('/etc/tmp/x')).toBe(false);
  });

  it("matches the custom rules' written_path globs (deploy/reviewer/rules.yaml) anywhere", () => {
    const generated = pathMatcher(['**/generated/**', '**/*.pb.go']);
    expect(generated('/work/app/src/generated/api.ts')).toBe(true);
    expect(generated(resolvePath('api\\v1\\service.pb.go', 'C:\\work\\app'))).toBe(true);
    expect(generated('/work/app/src/api.ts')).toBe(false);
  });

  it("matches the pattern detector's ignored paths (deploy/pattern-detector/patterns.yaml), Windows ones too", () => {
    const ignored = pathMatcher(['/usr/**', '**/nul', '**/node_modules/**', '~/.cache/**', '~/go', '~/appdata/local/temp/**', 'c:/windows/temp/**', '/c/windows/temp/**', '~/Library/Caches/**']);
    const windows = 'C:\\Users\\Vassa\\dev\\bot';
    expect(ignored(resolvePath('~/.cache/pip/x', '/home/dev/app'))).toBe(true);
    expect(ignored(resolvePath('/home/dev/go/pkg/mod/x', '/home/dev/app'))).toBe(true);
    expect(ignored(resolvePath('%USERPROFILE%\\AppData\\Local\\Temp\\x.txt', windows))).toBe(true);
    expect(ignored(resolvePath('C:\\Windows\\Temp\\setup.log', windows))).toBe(true);
    expect(ignored(resolvePath('/c/Windows/Temp/setup.log', windows))).toBe(true);
    expect(ignored(resolvePath('nul', windows))).toBe(true);
    expect(ignored(resolvePath('/Users/ann/Library/Caches/x', '/Users/ann/app'))).toBe(true);
    expect(ignored(resolvePath('~/projects/other/x', '/home/dev/app'))).toBe(false);
  });

  it('reads Git Bash globs as their drive', () => {
    const match = pathMatcher(['/c/windows/temp/**']);
    expect(match('c:/windows/temp/x')).toBe(true);
    expect(match('/c/windows/temp/x')).toBe(true);
  });

  it('matches a directory and what lies under it, and Windows globs whatever their case and slashes', () => {
    const project = pathMatcher(['C:\\Users\\Me\\App']);
    expect(project('c:/users/me/app')).toBe(true);
    expect(project(resolvePath('/c/Users/ME/App/src/x.ts', 'C:\\Users\\Me\\App'))).toBe(true);
    expect(project('C:/Users/Me/App/src/x.ts')).toBe(true);
    expect(project('c:/users/me/apple')).toBe(false);
    const expected = pathMatcher(['c:\\users\\vassa\\documents\\dev\\weather-bot/**']);
    expect(expected(resolvePath('src\\index.ts', 'C:\\Users\\Vassa\\Documents\\dev\\weather-bot'))).toBe(true);
  });

  it('takes relative globs from the working directory when one is given, and $HOME as ~', () => {
    const match = pathMatcher(['src/**', '$HOME/notes', '**/*.md'], '/home/ann/app');
    expect(match('/home/ann/app/src/a.ts')).toBe(true);
    expect(match('/home/ann/notes/todo.txt')).toBe(true);
    expect(match('/srv/docs/x.md')).toBe(true);
    expect(match('/home/ann/other/src/a.ts')).toBe(false);
    expect(pathMatcher(['src/**'])('src/a.ts')).toBe(true);
  });

  it('matches nothing without globs', () => {
    expect(pathMatcher([])('/anything')).toBe(false);
  });
});
