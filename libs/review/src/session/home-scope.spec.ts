import { StepReviewer } from '../step-reviewer.js';

let sequence = 0;
function session(cwd: string) {
  const reviewer = new StepReviewer();
  const address = { agentId: 'claude-code', sessionId: `home-${++sequence}` };
  reviewer.startSession(address, { context: { cwd, expected_paths: [`${cwd}/**`], goal: 'see our vps files' } });
  return (tool: string, input: Record<string, unknown>) => reviewer.review({ action_id: `a${++sequence}`, kind: 'tool_use', tool, input }, address).verdict;
}

describe('a session started in its home directory scopes itself to what it works on', () => {
  it('writes where it has been reading (/var/www/app from /root) without approval', () => {
    const review = session('/root');
    expect(review('Write', { file_path: '/var/www/app/server/index.js', content: 'x' }).verdict).toBe('require_approval');
    review('Bash', { command: 'ls -la /var/www/app/ && cat /var/www/app/package.json' });
    expect(review('Write', { file_path: '/var/www/app/server/db.js', content: 'x' }).verdict).toBe('allow');
    expect(review('Bash', { command: 'mkdir -p /var/www/app/server/routes' }).verdict).toBe('allow');
  });

  it('does not hand over the rest of the home: another project, its startup and access files', () => {
    const review = session('/home/ann');
    review('Bash', { command: 'cd /home/ann/code/site && ls' });
    expect(review('Edit', { file_path: '/home/ann/code/site/src/a.ts', old_string: 'a', new_string: 'b' }).verdict).toBe('allow');
    expect(review('Write', { file_path: '/home/ann/Documents/other/x.md', content: 'x' }).verdict).toBe('require_approval');
    expect(review('Write', { file_path: '/home/ann/.bashrc', content: 'x' }).verdict).toBe('require_approval');
    expect(review('Write', { file_path: '/home/ann/.ssh/authorized_keys', content: 'x' }).verdict).toBe('block');
  });

  it('starts its work where it makes a directory', () => {
    const review = session('C:\\Users\\me');
    expect(review('Bash', { command: 'mkdir -p ~/Documents/proj' }).verdict).toBe('allow');
    expect(review('Write', { file_path: 'C:/Users/me/Documents/proj/index.html', content: 'x' }).verdict).toBe('allow');
  });

  // A project made in the home by brace lists, then entered (a public Claude Code session started in its home).
  it('starts its work where it makes directories by brace lists, relative to the directory the line enters', () => {
    const review = session('/home/matt');
    expect(review('Bash', { command: 'mkdir -p /home/matt/otc/packages/{hardhat,nextjs}/contracts' }).verdict).toBe('allow');
    // Not held: at most a note that the goal does not name it.
    expect(['allow', 'warn']).toContain(review('Bash', { command: 'cd /home/matt/otc && mkdir -p packages/hardhat/{deploy,test}' }).verdict);
    expect(review('Write', { file_path: '/home/matt/otc/packages/hardhat/contracts/Market.sol', content: 'x' }).verdict).toBe('allow');
    expect(review('Write', { file_path: '/home/matt/otc/package.json', content: '{}' }).verdict).toBe('allow');
    // Not a sibling project, nor the home's own files.
    expect(review('Write', { file_path: '/home/matt/other/package.json', content: '{}' }).verdict).toBe('require_approval');
    expect(review('Write', { file_path: '/home/matt/.bashrc', content: 'x' }).verdict).toBe('require_approval');
  });

  it('writes its files in the home it was started in, as a session does in its own directory, and nothing more', () => {
    const review = session('/home/tarive');
    expect(review('Bash', { command: 'echo "Hello World!" > test.txt && hexdump -C test.txt | head -2' }).verdict).toBe('allow');
    expect(review('Write', { file_path: '/home/tarive/system_design.md', content: 'x' }).verdict).toBe('allow');
    expect(session('C:\\Users\\me')('Write', { file_path: 'C:/Users/me/notes.md', content: 'x' }).verdict).toBe('allow');
    // Not its dot-files, not what lies in the home's directories, not a directory of the home itself.
    expect(review('Write', { file_path: '/home/tarive/.profile', content: 'x' }).verdict).toBe('require_approval');
    expect(review('Write', { file_path: '/home/tarive/Documents/report.md', content: 'x' }).verdict).toBe('require_approval');
    expect(review('Bash', { command: 'rm -rf /home/tarive/Documents' }).verdict).not.toBe('allow');
  });
});
