import { parseAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import type { VerdictKind } from '@warden/contracts';
import { forcePushRule, historyDestructionRule, hookBypassRule, leaseInsteadOfForce, secretCommitRule, secretPushRule, withHooks } from './git-rules.js';
import type { RuleContext } from './review-rule.js';

function bash(command: string, cwd = '/work/app'): RuleContext {
  const action = parseAction({ kind: 'tool_use', tool: 'Bash', input: { command, description: 'push' } }, cwd);
  return { action, session: new ReviewSession('agent-1', 's1', Date.now()), limits: { maxFileOperations: 500 }, inScope: (p) => p.startsWith('/work/app') };
}

describe('force_push', () => {
  it.each([
    ['git push --force origin feature/parser', 'git push --force-with-lease origin feature/parser'],
    ['git push -uf origin feature', 'git push -u --force-with-lease origin feature'],
    ['git -C repo push --force origin fix-123', 'git -C repo push --force-with-lease origin fix-123'],
    ['git add . && git push -f origin wip && rm -f out.log', 'git add . && git push --force-with-lease origin wip && rm -f out.log'],
    ['sudo git push -f origin my-branch', 'sudo git push --force-with-lease origin my-branch'],
  ])('changes %s to %s', (command, modified) => {
    const finding = forcePushRule.evaluate(bash(command));
    expect(finding).toMatchObject({ verdict: 'modify', factors: ['history_rewrite'], reason: expect.stringContaining('--force-with-lease') });
    expect(finding?.modifiedInput).toEqual({ command: modified, description: 'push' });
  });

  it.each(['git push origin +main', "bash -c 'git push --force origin feature'", 'git push --force origin main', 'git push -f', 'git push --force=true origin HEAD:master'])(
    'asks for approval when %s overwrites a shared or unnamed branch, or cannot be rewritten',
    (command) => {
    expect(forcePushRule.evaluate(bash(command))).toMatchObject({ verdict: 'require_approval', alternative: expect.stringContaining('--force-with-lease') });
    },
  );

  it.each(['git push origin main', 'git push --force-with-lease origin main', 'git fetch -f'])('leaves %s alone', (command) => {
    expect(forcePushRule.evaluate(bash(command))).toBeNull();
  });

  it('returns null from the rewrite when there is no force flag', () => {
    expect(leaseInsteadOfForce('git push origin main')).toBeNull();
  });
});

describe('a modify verdict', () => {
  const call = (tool: string, input: Record<string, unknown>): RuleContext => ({ ...bash('true'), action: parseAction({ kind: 'tool_use', tool, input }, '/work/app') });

  it.each([
    ['run_command', { CommandLine: 'git push -f origin wip', Cwd: '/work/app', WaitMsBeforeAsync: 5000 }, { CommandLine: 'git push --force-with-lease origin wip', Cwd: '/work/app', WaitMsBeforeAsync: 5000 }],
    ['Execute', { command: 'git push -f origin wip' }, { command: 'git push --force-with-lease origin wip' }],
    ['shell', { command: ['bash', '-lc', 'git push -f origin wip'], workdir: '/work/app' }, { command: ['bash', '-lc', 'git push --force-with-lease origin wip'], workdir: '/work/app' }],
    ['exec_command', { cmd: 'git push -f origin wip' }, { cmd: 'git push --force-with-lease origin wip' }],
  ])('changes the command of %s in the field the agent reads it from', (tool, input, modified) => {
    expect(forcePushRule.evaluate(call(tool, input))?.modifiedInput).toEqual(modified);
  });
});

describe('hook_bypass', () => {
  it.each([
    ['git commit --no-verify -m "wip"', 'git commit -m "wip"'],
    ['git commit -m "wip" --no-verify', 'git commit -m "wip"'],
    ['git commit -nm "wip"', 'git commit -m "wip"'],
    ['git commit -a -n -m wip', 'git commit -a -m wip'],
    ['git push --no-verify origin main', 'git push origin main'],
    ['git -c core.hooksPath=/dev/null commit -m x', 'git commit -m x'],
    ['git add -A && git commit --no-verify -m "x" && git push', 'git add -A && git commit -m "x" && git push'],
  ])('changes %s to %s', (command, modified) => {
    const finding = hookBypassRule.evaluate(bash(command));
    expect(finding).toMatchObject({ verdict: 'modify', reason: expect.stringContaining('hides the failure instead of fixing it') });
    expect(finding?.modifiedInput?.['command']).toBe(modified);
  });

  it('warns when the flag sits where it cannot be removed in place', () => {
    expect(hookBypassRule.evaluate(bash('bash -c "git commit --no-verify -m x"'))).toMatchObject({ verdict: 'warn' });
  });

  it.each(['HUSKY=0 git commit -m x', 'SKIP=eslint,prettier git commit -m x', 'LEFTHOOK=0 git push origin feature'])('warns when %s skips the hooks by a variable', (command) => {
    expect(hookBypassRule.evaluate(bash(command))).toMatchObject({ verdict: 'warn', reason: expect.stringContaining(command.split(' ')[0]!) });
  });

  it.each(['HUSKY=1 git commit -m x', 'SKIP=eslint npm run lint', 'GIT_AUTHOR_NAME=bot git commit -m x', 'toString=1 git commit -m x'])('leaves %s alone', (command) => {
    expect(hookBypassRule.evaluate(bash(command))).toBeNull();
  });

  it.each(['git commit -m "-n is a flag"', 'git commit -m "stop using --no-verify"', 'git push -n origin main', 'git commit -am "fix"', 'git log -n 3'])(
    'leaves %s alone',
    (command) => {
      expect(hookBypassRule.evaluate(bash(command))).toBeNull();
    },
  );

  it('returns null from the rewrite when nothing bypasses the hooks', () => {
    expect(withHooks('git commit -m x')).toBeNull();
  });
});

describe('history_destruction', () => {
  it.each([
    ['git reset --hard', 'reset --hard', 'git stash'],
    ['git -C repo reset --merge', 'reset --merge', 'git stash'],
    ['git clean -fd', 'untracked', 'git clean -n'],
    ['git clean -fdx', 'ignored', 'git clean -n'],
    ['git checkout -- .', 'uncommitted', 'git stash'],
    ['git checkout .', 'uncommitted', 'git stash'],
    ['git restore .', 'uncommitted', 'git stash'],
    ['git stash clear', 'every stash', 'git stash drop'],
    ['git worktree remove --force ../wt', 'uncommitted', 'without --force'],
    ['git filter-branch --tree-filter "rm secrets" HEAD', 'history', 'git revert'],
    ['git reflog expire --expire=now --all', 'recovered', undefined],
    ['git branch -D main; git branch -m main', 'main line', 'new branch'],
  ])('needs approval for %s, which loses work git cannot give back', (command, text, alternative) => {
    const finding = historyDestructionRule.evaluate(bash(command));
    expect(finding).toMatchObject({ verdict: 'require_approval', reason: expect.stringContaining(text) });
    if (alternative) expect(finding?.alternative).toContain(alternative);
  });

  /** A session that has already changed files (edited, built, formatted): what it discards may be its own. */
  const afterWork = (command: string): RuleContext => {
    const context = bash(command);
    context.session.recordAction(parseAction({ kind: 'tool_use', tool: 'Edit', input: { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' } }, '/work/app'), 'e1', 'allow', Date.now());
    return context;
  };

  it.each([
    ['git branch -D old-work', 'branch -D'],
    ['git stash drop stash@{1}', 'stash@{1}'],
    ['git checkout -- src/a.ts', 'src/a.ts'],
    ['git restore src/a.ts', 'src/a.ts'],
    ['git switch -f main', '--force'],
    ['git checkout -qf main', '--force'],
  ])('warns about %s in a session that has changed files, naming what it discards', (command, text) => {
    expect(historyDestructionRule.evaluate(afterWork(command))).toMatchObject({ verdict: 'warn', reason: expect.stringContaining(text) });
  });

  it.each(['git checkout -- src/a.ts', 'git restore src/a.ts', 'git switch -f main'])('holds %s while the session has changed nothing: the changes are not its own', (command) => {
    const finding = historyDestructionRule.evaluate(bash(command));
    expect(finding).toMatchObject({ verdict: 'require_approval', reason: expect.stringContaining('this session has changed nothing yet') });
    // Dropping a stash or a branch is no change of the working tree: a warning either way.
    expect(historyDestructionRule.evaluate(bash('git stash drop'))?.verdict).toBe('warn');
  });

  it.each([
    ['git push origin --delete feature', 'feature'],
    ['git push -d origin old', 'old'],
    ['git push origin :stale', 'stale'],
  ])('needs approval to delete a remote branch: %s', (command, branch) => {
    const finding = historyDestructionRule.evaluate(bash(command));
    expect(finding).toMatchObject({ verdict: 'require_approval', score: 0.8 });
    expect(finding?.reason).toContain(branch);
  });

  it("warns, and no more, about deleting on the remote a branch the session made (renaming its own branch)", () => {
    const made = bash('git checkout -b refactor/first-name');
    made.session.recordAction(made.action, 'a1', 'allow', Date.now());
    const rename = parseAction({ kind: 'tool_use', tool: 'Bash', input: { command: 'git branch -m refactor/second-name && git push -u origin refactor/second-name && git push origin --delete refactor/first-name' } }, '/work/app');
    expect(historyDestructionRule.evaluate({ ...made, action: rename })).toMatchObject({ verdict: 'warn', reason: expect.stringContaining('a branch this session made') });
    // Another's branch, a shared one, or one the session never made still needs a person.
    expect(historyDestructionRule.evaluate({ ...made, action: parseAction({ kind: 'tool_use', tool: 'Bash', input: { command: 'git push origin --delete refactor/first-name feature/other' } }, '/work/app') })?.verdict).toBe('require_approval');
    expect(historyDestructionRule.evaluate(bash('git checkout -b main && git push origin --delete main'))?.verdict).toBe('require_approval');
  });

  it('prefers the approval when a line also discards work', () => {
    expect(historyDestructionRule.evaluate(bash('git reset --hard && git push origin --delete tmp'))?.verdict).toBe('require_approval');
    expect(historyDestructionRule.evaluate(bash('git reset --hard HEAD~5'))).toMatchObject({ verdict: 'require_approval', reason: expect.stringContaining('drops the commits after HEAD~5') });
  });

  it.each([
    'git reset --soft HEAD~1',
    'git clean -n',
    'git clean -fdn',
    'git checkout main',
    'git checkout -bfeature',
    'git switch -cfeature',
    'git checkout --conflict merge main',
    'git checkout --track direct main',
    'git restore --staged .',
    'git branch -d merged',
    'git push origin main',
    'git worktree remove ../wt',
    'git stash list',
  ])(
    'leaves %s alone',
    (command) => {
      expect(historyDestructionRule.evaluate(bash(command))).toBeNull();
    },
  );
});

describe('history_destruction: what git reads as written', () => {
  it.each([
    // git accepts an unambiguous prefix of a long option.
    'git reset --ha HEAD~2',
    'git gc --pru=now',
    'git prune',
    'git prune --expire=all',
    'git -c gc.pruneExpire=now gc',
    'git -c clean.requireForce=off clean -d',
    "git -c alias.undo='reset --hard' undo",
    'git push --mirror git@github.com:org/repo.git',
    // git's own store, changed by hand.
    'rm -rf .git/refs',
    'rm -f .git/packed-refs',
    'rm -rf mirror.git/objects',
    'printf broken > .git/objects/ab/cdef',
  ])('asks for approval for %s', (command) => {
    expect(historyDestructionRule.evaluate(bash(command))).toMatchObject({ verdict: 'require_approval' });
  });

  it.each(['git prune --dry-run', 'git prune -n', 'git gc --prune=2.weeks.ago', 'git -c clean.requireForce=true clean', 'git push --mirror --dry-run origin', 'rm -f .git/index.lock', 'rm -rf .git/hooks/pre-commit.sample', "git -c alias.st='status -sb' st"])(
    'leaves %s alone',
    (command) => {
      expect(historyDestructionRule.evaluate(bash(command))).toBeNull();
    },
  );

  it.each(['git push --force-with-lease --force origin feature', 'git push --force-with-lease=other origin +feature'])('reads %s as a forced push, whatever lease is beside it', (command) => {
    expect(forcePushRule.evaluate(bash(command))).not.toBeNull();
  });
});

describe('secret_commit', () => {
  it.each([
    'git add .env.local',
    'git add -f ~/.ssh/id_ed25519',
    'git add credentials.json src/app.ts',
    'git add .aws',
    // A Codex home kept in the project, its login staged with it (a public Codex session).
    'git add .codex/auth.json',
    'git commit -m "config" .env.production',
    'git -C backend stage ./.env.local',
  ])('holds %s for a person', (command) => {
    expect(secretCommitRule.evaluate(bash(command))?.verdict).toBe('require_approval');
  });

  it.each(['git commit -m "Key: $GITHUB_TOKEN"', 'git commit -am "use ${NPM_TOKEN} in ci"', 'git tag -a v1 -m "built with $GH_TOKEN"'])(
    "holds %s: the shell writes the credential's value into the history",
    (command) => {
      expect(secretCommitRule.evaluate(bash(command))).toMatchObject({ verdict: 'require_approval', reason: expect.stringContaining('into this commit') });
    },
  );

  it.each(["git commit -m 'Key: $GITHUB_TOKEN'", 'git commit -m "bump to $VERSION"', `git commit -m "$(cat <<'EOF'\nread $GITHUB_TOKEN in CI\nEOF\n)"`])(
    'lets %s through: nothing secret is expanded',
    (command) => {
      expect(secretCommitRule.evaluate(bash(command))).toBeNull();
    },
  );

  it("warns of a plain .env, which some frameworks commit on purpose (Symfony's defaults)", () => {
    expect(secretCommitRule.evaluate(bash('git add .env'))?.verdict).toBe('warn');
  });

  it.each(['git add .env.example src/env.ts', 'git commit -m "read .env.local in dev only" src/env.ts', 'git add -A', 'git commit -am wip', 'git add docs/credentials-howto.md', 'cat .env.local', 'git rm --cached .env.local'])('lets %s through', (command) => {
    expect(secretCommitRule.evaluate(bash(command))).toBeNull();
  });

  // A home put under version control whole, its ~/.claude/.credentials.json with it, then pushed (a public Claude Code session).
  it.each([
    ['cd ~ && git add . && git commit -m backup', '/work/app'],
    ['git add -A', '/home/ann'],
    ['git -C /home/ann add .', '/work/app'],
    ['git add *', '/Users/ann'],
  ])('holds %s (in %s), which stages the whole home, for a person', (command, cwd) => {
    expect(secretCommitRule.evaluate(bash(command, cwd))).toMatchObject({ verdict: 'require_approval', reason: expect.stringContaining('the whole home directory') });
  });

  it.each([
    ['git add ~/.codex', '/work/app'],
    ['git add .codex', '/home/ann'],
    ['git add /home/ann/.config/gh', '/work/app'],
  ])("holds %s (in %s), a home's login directory, for a person", (command, cwd) => {
    expect(secretCommitRule.evaluate(bash(command, cwd))?.verdict).toBe('require_approval');
  });

  it.each([
    // A repository kept in a login directory: its own .gitignore is written for it.
    ['git add -A', '/home/ann/.claude'],
    ['git add .', '/home/ann/.codex'],
    // A project's own .codex holds its settings, not the user's login.
    ['git add .codex', '/work/app'],
    ['cd ~/project && git add -A', '/work/app'],
    ['git add ~/.bashrc', '/home/ann'],
    ['git commit -am wip', '/home/ann'],
  ])('lets %s (in %s) through', (command, cwd) => {
    expect(secretCommitRule.evaluate(bash(command, cwd))).toBeNull();
  });
});

describe('secret_push', () => {
  /** A session in `cwd` that ran these lines, each let through with its verdict and reported as it ended. */
  function after(lines: [command: string, verdict: VerdictKind, status?: 'success' | 'error' | 'pending'][], cwd: string, historySize = 100): ReviewSession {
    const session = new ReviewSession('agent-1', 's1', 0, historySize);
    lines.forEach(([command, verdict, status = 'success'], i) => {
      session.recordAction(parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, cwd), `a${i}`, verdict, i);
      if (status !== 'pending') session.recordOutcome({ actionId: `a${i}`, status }, i);
    });
    return session;
  }
  const review = (command: string, cwd: string, session: ReviewSession) => secretPushRule.evaluate({ ...bash(command, cwd), session });

  // A home put under version control whole and pushed, a person having let the `git add .` run (a public Claude Code session).
  it('holds the commit and then the push that follow an approved staging of the whole home', () => {
    const staged = after([['git add .', 'require_approval']], '/home/ann');
    expect(review('git commit -m "Initial commit"', '/home/ann', staged)).toMatchObject({ verdict: 'require_approval', reason: expect.stringContaining('the whole home directory (/home/ann)') });
    const committed = after([['git add .', 'require_approval'], ['git commit -m init', 'require_approval']], '/home/ann');
    expect(review('git push -u origin master', '/home/ann', committed)).toMatchObject({ verdict: 'require_approval', reason: expect.stringContaining('This pushes a commit that holds the whole home directory') });
    expect(review('git -C /home/ann push', '/work/app', committed)?.verdict).toBe('require_approval');
  });

  it("holds a push of a login directory's commit made by the same line as the staging's approval allowed", () => {
    const session = after([['git -C "C:\\Users\\ann" add .claude/ .codex/ .gitignore', 'require_approval'], ['git commit -m sync', 'allow']], 'C:\\Users\\ann');
    expect(review('git push -u origin master', 'C:\\Users\\ann', session)?.reason).toContain('.claude');
  });

  it.each([
    ['a push already made', [['git add .env.local', 'require_approval'], ['git commit -m x', 'allow'], ['git push', 'allow']], 'git push'],
    ['the staging taken back', [['git add .env.local', 'require_approval'], ['git reset', 'allow']], 'git commit -m x'],
    ['the commit taken back', [['git add .env.local', 'require_approval'], ['git commit -m x', 'allow'], ['git reset HEAD~1', 'allow']], 'git push'],
    ['the file untracked again', [['git add .env.local', 'require_approval'], ['git rm --cached .env.local', 'allow']], 'git commit -m x'],
    ['a staging that failed', [['git add .env.local', 'require_approval', 'error']], 'git commit -m x'],
    ['a staging a person blocked', [['git add .env.local', 'block', 'pending']], 'git commit -m x'],
    ['a dry run', [['git add -n .', 'allow']], 'git commit -m x'],
    ['a plain .env, only warned about', [['git add .env', 'warn']], 'git commit -m x'],
    ['ordinary files', [['git add src/a.ts', 'allow'], ['git commit -m x', 'allow']], 'git push'],
  ] as [string, [string, VerdictKind, ('success' | 'error' | 'pending')?][], string][])('lets the next commit or push through after %s', (_, lines, command) => {
    expect(review(command, '/home/ann', after(lines, '/home/ann'))).toBeNull();
  });

  // The same session later stages "every change" again: the credentials it committed are tracked, and have changed.
  it('holds a commit of every change in a repository where the session committed credentials, until they are untracked', () => {
    const tracked: [string, VerdictKind][] = [['git add .', 'require_approval'], ['git commit -m init', 'require_approval'], ['git push', 'require_approval']];
    expect(review('git add -u && git commit -m "Restructure"', '/home/ann', after(tracked, '/home/ann'))?.reason).toContain('staged again');
    expect(review('git commit -am wip', '/home/ann', after(tracked, '/home/ann'))?.verdict).toBe('require_approval');
    expect(review('git push', '/home/ann', after([...tracked, ['git add -A', 'allow'], ['git commit -m next', 'allow']], '/home/ann'))?.verdict).toBe('require_approval');
    expect(review('git add vercel.json && git commit -m deploy', '/home/ann', after(tracked, '/home/ann'))).toBeNull();
    expect(review('git add -u && git commit -m x', '/home/ann', after([...tracked, ['git rm -r --cached .claude', 'allow']], '/home/ann'))).toBeNull();
    // Other files taken out of version control leave the credentials tracked.
    expect(review('git add -u && git commit -m x', '/home/ann', after([...tracked, ['git reset && git rm --cached -r vendor', 'allow']], '/home/ann'))?.verdict).toBe('require_approval');
  });

  it('remembers credentials committed before the actions the session still holds in its history', () => {
    const lines: [string, VerdictKind][] = [['git add .', 'require_approval'], ['git commit -m init', 'require_approval'], ['git push', 'require_approval']];
    for (let i = 0; i < 6; i++) lines.push([`npm run build -- --step ${i}`, 'allow']);
    const session = after(lines, '/home/ann', 3);
    expect(session.history).toHaveLength(3);
    expect(review('git add -u && git commit -m later', '/home/ann', session)?.reason).toContain('the whole home directory (/home/ann)');
    expect(review('git add -u && git commit -m later', '/home/ann/app', session)).toBeNull();
  });

  it('holds the commit after a soft reset of a commit that held credentials: they are staged again', () => {
    const session = after([['git add .env.local', 'require_approval'], ['git commit -m x', 'allow'], ['git reset --soft HEAD^', 'allow']], '/work/app');
    expect(review('git push', '/work/app', session)).toBeNull();
    expect(review('git commit -m again', '/work/app', session)?.verdict).toBe('require_approval');
  });

  // The staging's outcome may still be on its way when the next action comes (several calls in one turn).
  it('counts a held staging whose outcome has not come yet, and a held push only once it ran', () => {
    const waiting = after([['git add .env.local', 'require_approval', 'pending']], '/work/app');
    expect(review('git commit -m x', '/work/app', waiting)?.verdict).toBe('require_approval');
    const unanswered = after([['git add .env.local', 'require_approval'], ['git commit -m x', 'require_approval', 'pending'], ['git push', 'require_approval', 'pending']], '/work/app');
    expect(review('git push origin main', '/work/app', unanswered)?.verdict).toBe('require_approval');
  });

  it("leaves a project's own repository alone after the home's was staged (a project under a home is a repository of its own)", () => {
    const session = after([['git add -A', 'require_approval'], ['git commit -m dotfiles', 'allow']], '/home/ann');
    expect(review('git push', '/home/ann/app', session)).toBeNull();
    expect(review('cd ~/app && git push', '/home/ann', session)).toBeNull();
  });

  it("asks nothing about the line's own staging: that is secret_commit's question", () => {
    expect(review('git add .env.local && git commit -m x && git push', '/work/app', after([], '/work/app'))).toBeNull();
  });
});
