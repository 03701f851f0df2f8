import { parseAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import { deletionOutsideProjectRule, limitFileOperationsRule, preventRecursiveDeletionRule, recursiveDeletionRule } from './file-operation-rules.js';
import type { RuleContext } from './review-rule.js';

const inProject = (p: string) => p.startsWith('/work/app');

function context(tool: string, input: Record<string, unknown>, kind = 'tool_use', session = new ReviewSession('agent-1', 's1', Date.now())): RuleContext {
  const action = parseAction({ kind, tool, input }, '/work/app');
  return { action, session, limits: { maxFileOperations: 500 }, inScope: inProject };
}
const bash = (command: string, session?: ReviewSession) => context('Bash', { command }, 'tool_use', session);

describe('prevent_recursive_deletion', () => {
  it('blocks a file operation that deletes recursively, in the seed’s words', () => {
    const finding = preventRecursiveDeletionRule.evaluate(context('file_operation', { operation: 'delete', path: '/work/app/build', recursive: true }, 'file_operation'));
    expect(finding).toMatchObject({ verdict: 'block', reason: expect.stringMatching(/^Recursive deletion is not allowed/) });
    expect(finding?.reason).toContain('/work/app/build');
  });

  it('blocks a Delete tool with recursive: true', () => {
    expect(preventRecursiveDeletionRule.evaluate(context('Delete', { path: 'build', recursive: true }))?.verdict).toBe('block');
  });

  it.each([
    ['a plain deletion', 'file_operation', { operation: 'delete', path: '/work/app/a.txt' }, 'file_operation'],
    ['a recursive read', 'file_operation', { operation: 'list', path: '/work/app', recursive: true }, 'file_operation'],
    ['a shell rm -rf (recursive_deletion’s)', 'Bash', { command: 'rm -rf build', recursive: true }, 'tool_use'],
  ])('ignores %s', (_name, tool, input, kind) => {
    expect(preventRecursiveDeletionRule.evaluate(context(tool, input, kind))).toBeNull();
  });
});

describe('limit_file_operations', () => {
  it('blocks a file change once the session used up its operations', () => {
    const session = new ReviewSession('agent-1', 's1', Date.now());
    session.fileOperations = 500;
    const finding = limitFileOperationsRule.evaluate(context('Write', { file_path: 'a.ts', content: '' }, 'tool_use', session));
    expect(finding).toMatchObject({ verdict: 'block', reason: expect.stringMatching(/^File operation limit exceeded \(501 of 500\)/) });
  });

  it('lets reads through, and changes below the limit', () => {
    const session = new ReviewSession('agent-1', 's1', Date.now());
    session.fileOperations = 500;
    expect(limitFileOperationsRule.evaluate(context('Read', { file_path: 'a.ts' }, 'tool_use', session))).toBeNull();
    session.fileOperations = 499;
    expect(limitFileOperationsRule.evaluate(context('Write', { file_path: 'a.ts', content: '' }, 'tool_use', session))).toBeNull();
  });
});

describe('recursive_deletion', () => {
  const inApp = () => {
    const session = new ReviewSession('agent-1', 's1', Date.now());
    session.declare({ cwd: '/work/app', expected_paths: ['/work/app/**'] });
    return session;
  };

  it.each(['rm -r dist', 'rm -rf ./build node_modules', 'rm -rf /tmp/test-dir', 'rm -rf "$TMPDIR/x"', 'dir=$(mktemp -d) && rm -rf "$dir"', "find . -name '*.pyc' -delete"])(
    'is quiet about %s: build output or scratch space',
    (command) => {
      expect(recursiveDeletionRule.evaluate(bash(command, inApp()))).toBeNull();
    },
  );

  it.each([
    ['rm -rf .', 'whole project'],
    ['cd src && rm -rf ..', 'whole project'],
    ['find . -exec rm -rf {} +', 'whole project'],
    ['rm -rf "$BUILD_DIR"', 'only known when it runs'],
    ['find . -print0 | xargs -0 rm -rf', 'only known when it runs'],
    ['rm -rf .git', 'history'],
  ])('needs approval for %s', (command, text) => {
    expect(recursiveDeletionRule.evaluate(bash(command, inApp()))).toMatchObject({ verdict: 'require_approval', reason: expect.stringContaining(text) });
  });

  it('ignores a single file', () => {
    expect(recursiveDeletionRule.evaluate(bash('rm notes.txt'))).toBeNull();
  });

  // The shell was left in a directory the agent had entered; the line goes back to the project first (a public Claude Code session).
  it('reads the project from where the rm runs and where the session works, not from where the shell was left', () => {
    const entered = (command: string) => {
      const action = parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, '/work/app/vendor/lib');
      return recursiveDeletionRule.evaluate({ action, session: inApp(), limits: { maxFileOperations: 500 }, inScope: inProject });
    };
    expect(entered('cd /work/app && rm -rf vendor/lib && mkdir -p vendor/lib')).toBeNull();
    expect(entered('cd /work && rm -rf app')).toMatchObject({ reason: expect.stringContaining('whole project') });
    expect(entered('rm -rf .')).toMatchObject({ reason: expect.stringContaining('whole project') });
  });
});

describe('deletion_outside_project', () => {
  it.each(['rm -rf /tmp', 'rm -rf /tmp/*', 'rm -rf /private/tmp', 'rm -rf /var/tmp/', 'find /tmp -delete'])('holds %s: a whole shared temporary directory', (command) => {
    expect(deletionOutsideProjectRule.evaluate(bash(command))).toMatchObject({ verdict: 'require_approval', factors: ['file_deletion', 'shared_resource'] });
  });

  it.each(['rm -rf /tmp/build-123', 'rm -f /tmp/out.log', 'rm -rf /tmp/cart-*'])('lets %s go: the session’s own files in a temporary directory', (command) => {
    // Temporary directories are in every session's scope by default (settings: scope.always_in_scope).
    const withTemp = { ...bash(command), inScope: (p: string) => inProject(p) || p.startsWith('/tmp/') };
    expect(deletionOutsideProjectRule.evaluate(withTemp)).toBeNull();
  });

  it('blocks a deletion outside the scope and names the path', () => {
    const finding = deletionOutsideProjectRule.evaluate(bash('rm -rf /srv/other/data'));
    expect(finding).toMatchObject({ verdict: 'block', factors: ['file_deletion', 'out_of_scope'] });
    expect(finding?.reason).toContain('/srv/other/data');
  });

  it('names the expected paths the session declared', () => {
    const session = new ReviewSession('agent-1', 's1', Date.now());
    session.declare({ expected_paths: ['/work/app/src'], cwd: '/work/app' });
    const finding = deletionOutsideProjectRule.evaluate(bash('rm -r ../other', session));
    expect(finding?.reason).toContain('/work/other');
    expect(finding?.reason).toContain('/work/app/src');
  });

  it.each([
    ['a Delete tool', 'Delete', { path: '/etc/hosts' }],
    ['find -delete', 'Bash', { command: 'find /var/log/app -name "*.gz" -delete' }],
    ['unlink', 'Bash', { command: 'unlink /usr/local/bin/tool' }],
  ])('sees the deletion of %s', (_name, tool, input) => {
    expect(deletionOutsideProjectRule.evaluate(context(tool, input))?.verdict).toBe('block');
  });

  it("reads PowerShell's and cmd's deletions with their backslashes, against a Windows project", () => {
    const inWindowsProject = (p: string) => p.startsWith('c:/users/me/proj/');
    const windows = (command: string) =>
      deletionOutsideProjectRule.evaluate({
        action: parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, 'C:\\Users\\me\\proj'),
        session: new ReviewSession('agent-1', 's1', 0),
        limits: { maxFileOperations: 500 },
        inScope: inWindowsProject,
      });
    expect(windows('Remove-Item -Recurse -Force C:\\Users\\me\\Documents')).toMatchObject({ verdict: 'block', reason: expect.stringContaining('c:/users/me/documents') });
    expect(windows('rd /s /q ..\\other')?.reason).toContain('c:/users/me/other');
    expect(windows('Remove-Item .\\out -Recurse -Force')).toBeNull();
    expect(windows('rmdir /s /q build')).toBeNull();
  });

  it.each(['rm -rf build', 'rm -rf build && touch /tmp/marker'])('allows %s', (command) => {
    expect(deletionOutsideProjectRule.evaluate(bash(command))).toBeNull();
  });

  it('places a relative path only where the action runs, when that is known', () => {
    // Without a working directory, a relative path cannot be placed.
    const unplaced = parseAction({ kind: 'tool_use', tool: 'Bash', input: { command: 'rm ../elsewhere.txt' } });
    expect(deletionOutsideProjectRule.evaluate({ action: unplaced, session: new ReviewSession('agent-1', 's1', 0), limits: { maxFileOperations: 500 }, inScope: inProject })).toBeNull();
    expect(deletionOutsideProjectRule.evaluate(bash('rm ../elsewhere.txt'))?.reason).toContain('/work/elsewhere.txt');
    // The shell moved into the project's data directory: `rm -f data/raw/x.json` is there, not in the directory the session began in.
    const moved = parseAction({ kind: 'tool_use', tool: 'Bash', input: { command: 'rm -f data/raw/prs.json' } }, '/work/app/weave');
    expect(deletionOutsideProjectRule.evaluate({ action: moved, session: new ReviewSession('agent-1', 's1', 0), limits: { maxFileOperations: 500 }, inScope: inProject })).toBeNull();
  });

  it('stays quiet when the scope lets everything in', () => {
    const action = parseAction({ kind: 'tool_use', tool: 'Bash', input: { command: 'rm -rf /srv/other' } }, '/work/app');
    const ctx: RuleContext = { action, session: new ReviewSession('agent-1', 's1', Date.now()), limits: { maxFileOperations: 500 }, inScope: () => true };
    expect(deletionOutsideProjectRule.evaluate(ctx)).toBeNull();
  });
});
