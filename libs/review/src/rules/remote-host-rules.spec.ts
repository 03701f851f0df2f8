import { StepReviewer } from '../step-reviewer.js';

/**
 * Commands run on another machine, container or pod are reviewed as commands on that host: what destroys
 * there is still stopped, but the session's project, its paths and "your machine" are not said of it.
 */
let sequence = 0;

function review(command: string) {
  const reviewer = new StepReviewer();
  const address = { agentId: 'claude-code', sessionId: `remote-${++sequence}` };
  reviewer.startSession(address, { context: { cwd: 'C:\\Users\\me', expected_paths: ['C:\\Users\\me\\**'], goal: 'strip unused packages from the router' } });
  return reviewer.review({ action_id: `a${++sequence}`, kind: 'tool_use', tool: 'Bash', input: { command } }, address).verdict;
}

describe('remote host rules', () => {
  it.each([
    ['ssh root@router "rm /etc/init.d/x"', 'warn'],
    ['docker exec -it web rm /etc/nginx/conf.d/default.conf', 'warn'],
    ['sshpass -p secret ssh root@router "rm -f /etc/config/x"', 'warn'],
    ['ssh root@router rm -rf /usr/lib/lua/luci/x', 'require_approval'],
    ['docker compose exec web rm -rf /app/tmp', 'require_approval'],
    ['kubectl exec api -- rm -rf /data/cache', 'require_approval'],
    ['ssh deploy@web1 "sudo rm /etc/nginx/nginx.conf"', 'require_approval'],
  ])('judges deleting files on that host as there, never as "outside the project": %s', (command, expected) => {
    const verdict = review(command);
    expect(verdict.verdict).toBe(expected);
    expect(verdict.rule_hits).toContain('remote_deletion');
    expect(verdict.rule_hits).not.toContain('deletion_outside_project');
    expect(verdict.reasons.join(' ')).not.toMatch(/outside the paths this session works on/);
  });

  it.each(['ssh root@router reboot', 'ssh -p 2222 admin@nas "sudo shutdown -h now"', 'kubectl exec api -- reboot', 'docker exec box systemctl reboot'])(
    'holds rebooting another machine for approval, not as rebooting the user’s own: %s',
    (command) => {
      const verdict = review(command);
      expect(verdict.verdict).toBe('require_approval');
      expect(verdict.rule_hits).toEqual(expect.arrayContaining(['remote_shutdown']));
      expect(verdict.rule_hits).not.toContain('system_shutdown');
    },
  );

  it.each(['ssh root@router "rm -rf /"', 'docker exec ctr rm -rf /', 'docker exec ctr sh -c "rm -rf /etc"', 'kubectl exec api -- rm -rf /usr'])('still blocks destroying that host: %s', (command) => {
    expect(review(command)).toMatchObject({ verdict: 'block', rule_hits: expect.arrayContaining(['destructive_root_deletion']) });
  });

  it('still blocks what runs here: rebooting this machine, deleting outside the project', () => {
    expect(review('reboot').rule_hits).toContain('system_shutdown');
    expect(review('rm /etc/hosts').rule_hits).toContain('deletion_outside_project');
  });

  it('reads a remote command from its own directory, not where the local shell moved', () => {
    const verdict = review('cd /tmp && ssh build@ci "rm build.log"');
    expect(verdict.verdict).toBe('warn');
    expect(verdict.reasons.join(' ')).toMatch(/deletes build.log on the machine build@ci/);
  });

  it('lets reads on another host run', () => {
    expect(['allow', 'warn']).toContain(review('ssh host "cat /etc/hosts"').verdict);
    expect(['allow', 'warn']).toContain(review('kubectl exec api -- cat /etc/hosts').verdict);
  });
});
