import { containerDataDestructionRule, massProcessKillRule, packagePublishRule, remoteShellRule, systemShutdownRule } from './operations-rules.js';
import { bashContext as bash } from './rule-context.fixture.js';
import { ADMIN_CLI_RULES } from './admin-cli-rules.js';

const cloudDestructionRule = ADMIN_CLI_RULES.find((r) => r.name === 'cloud_destruction')!;

describe('operations rules', () => {
  it.each(['npm publish', 'npm publish --access public', 'cargo publish', 'twine upload dist/*', 'docker push registry.example.com/app:1.2', 'gh release create v1.2.0'])(
    'package_publish asks for approval of %s',
    (command) => {
      expect(packagePublishRule.evaluate(bash(command))?.verdict).toBe('require_approval');
    },
  );

  it('package_publish leaves a dry run and a pack alone', () => {
    expect(packagePublishRule.evaluate(bash('npm pack'))).toBeNull();
    expect(packagePublishRule.evaluate(bash('docker build -t app .'))).toBeNull();
  });

  it.each(['aws s3 rm s3://prod-backups --recursive', 'aws s3 rb s3://old-bucket --force', 'aws ec2 terminate-instances --instance-ids i-123', 'gcloud sql instances delete main', 'gsutil rm -r gs://bucket/dir'])(
    'cloud_destruction asks for approval of %s',
    (command) => {
      expect(cloudDestructionRule.evaluate(bash(command))?.verdict).toBe('require_approval');
    },
  );

  it.each([
    'aws cognito-idp admin-delete-user --user-pool-id us-east-1_abc --username u',
    'aws ec2 revoke-security-group-ingress --group-id sg-1 --protocol tcp --port 22',
    'aws iam detach-role-policy --role-name app --policy-arn arn:aws:iam::1:policy/p',
    'gcloud compute instances stop web-1 --zone europe-west1-b',
  ])('cloud_destruction asks for approval of an operation named verb-first after a qualifier, or one that takes access away: %s', (command) => {
    expect(cloudDestructionRule.evaluate(bash(command))?.verdict).toBe('require_approval');
  });

  it.each(['az --subscription delete vm list', 'gcloud --project delete compute instances list', 'az -o table vm list -g remove'])(
    'cloud_destruction reads the value of a global option as a value, not as an operation: %s',
    (command) => {
      expect(cloudDestructionRule.evaluate(bash(command))).toBeNull();
    },
  );

  it.each(['helm un web', 'borg rdelete ssh://backup.example/./repo'])('a destructive verb of one tool (an alias, a newer name): %s', (command) => {
    expect(ADMIN_CLI_RULES.some((r) => r.evaluate(bash(command))?.verdict === 'require_approval')).toBe(true);
  });

  it.each(['aws ec2 reboot-instances --instance-ids i-123', 'aws cloudwatch disable-alarm-actions --alarm-names high-cpu', 'aws kms disable-key --key-id k', 'gcloud services disable compute.googleapis.com'])(
    'cloud_destruction asks for approval of taking cloud resources down or switching a safeguard off: %s',
    (command) => {
      expect(cloudDestructionRule.evaluate(bash(command))).toMatchObject({ verdict: 'require_approval', factors: ['shared_infrastructure', 'cloud_disruption'] });
    },
  );

  it('cloud_destruction leaves a local development stack and queries alone', () => {
    expect(cloudDestructionRule.evaluate(bash('supabase stop'))).toBeNull();
    expect(cloudDestructionRule.evaluate(bash('aws athena stop-query-execution --query-execution-id q1'))).toBeNull();
    expect(cloudDestructionRule.evaluate(bash('aws ec2 describe-instances --filters Name=instance-state-name,Values=stopped'))).toBeNull();
  });

  it('platform_deletion reads an operation named noun-first (gh project item-delete)', () => {
    expect(ADMIN_CLI_RULES.find((r) => r.name === 'platform_deletion')!.evaluate(bash('gh project item-delete 1 --owner me --id PVTI_1'))?.verdict).toBe('require_approval');
  });

  it('cloud_destruction leaves reads and copies alone', () => {
    expect(cloudDestructionRule.evaluate(bash('aws s3 ls s3://bucket'))).toBeNull();
    expect(cloudDestructionRule.evaluate(bash('aws s3 cp build s3://bucket --recursive'))).toBeNull();
  });

  it('remote_shell leaves a remote command to the review of that command, warns about a login, and asks for approval on production hosts', () => {
    expect(remoteShellRule.evaluate(bash("ssh dev@build-box 'uptime'"))).toBeNull();
    expect(remoteShellRule.evaluate(bash('ssh dev@build-box'))).toMatchObject({ verdict: 'warn', reason: expect.stringContaining('build-box') });
    // A Git host's git user has no shell: testing the key is no login.
    expect(remoteShellRule.evaluate(bash('ssh -T git@github.com'))).toBeNull();
    expect(remoteShellRule.evaluate(bash('ssh -i ~/.ssh/id_ed25519 -o BatchMode=yes -p 443 -T git@ssh.github.com'))).toBeNull();
    expect(remoteShellRule.evaluate(bash('ssh gitlab-runner@ci.example.com'))).toMatchObject({ verdict: 'warn' });
    expect(remoteShellRule.evaluate(bash("ssh deploy@prod.shop.example.com 'sudo systemctl restart shop'"))).toMatchObject({ verdict: 'require_approval', factors: ['remote_execution', 'production'] });
  });

  it.each(['shutdown -h now', 'sudo reboot', 'systemctl poweroff', 'kill -9 -1', 'init 0'])('system_shutdown blocks %s', (command) => {
    expect(systemShutdownRule.evaluate(bash(command))?.verdict).toBe('block');
  });

  it('system_shutdown lets the agent stop its own process', () => {
    expect(systemShutdownRule.evaluate(bash('kill 4242'))).toBeNull();
    expect(systemShutdownRule.evaluate(bash('kill -9 4242'))).toBeNull();
  });

  it('mass_process_kill asks for approval of killall and pkill', () => {
    expect(massProcessKillRule.evaluate(bash('pkill -f node'))?.verdict).toBe('require_approval');
    // A program and only its options is every run of that program, the user's own too.
    expect(massProcessKillRule.evaluate(bash('pkill -9 -f "tail -f"'))?.verdict).toBe('require_approval');
    expect(massProcessKillRule.evaluate(bash('pkill -f "python -u"'))?.verdict).toBe('require_approval');
    expect(massProcessKillRule.evaluate(bash('pkill -f "tail -f logs/train-run3.log"'))?.verdict).toBe('warn');
    // The broadest kill of the line decides.
    expect(massProcessKillRule.evaluate(bash('pkill -9 -f "train.py.*run3"\npkill -9 -f "tail -f"'))).toMatchObject({ verdict: 'require_approval', reason: expect.stringContaining('tail -f') });
    expect(massProcessKillRule.evaluate(bash('killall python3'))?.verdict).toBe('require_approval');
  });

  it('container_data_destruction asks for approval to delete volumes, not containers or images', () => {
    for (const command of ['docker system prune -af --volumes', 'docker volume prune -f', 'docker volume rm pgdata', 'docker compose down -v', 'docker-compose down --volumes', 'podman-compose down -v']) {
      expect({ command, verdict: containerDataDestructionRule.evaluate(bash(command))?.verdict }).toEqual({ command, verdict: 'require_approval' });
    }
    expect(containerDataDestructionRule.evaluate(bash('docker system prune -af'))).toBeNull();
    expect(containerDataDestructionRule.evaluate(bash('docker compose down'))).toBeNull();
    expect(containerDataDestructionRule.evaluate(bash('docker-compose down'))).toBeNull();
  });
});
