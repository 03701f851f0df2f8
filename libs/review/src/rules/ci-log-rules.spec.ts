import { ciLogExposureRule } from './ci-log-rules.js';
import { ruleContext } from './rule-context.fixture.js';

const edit = (file_path: string, old_string: string, new_string: string) => ruleContext('Edit', { file_path, old_string, new_string });

describe('ci_log_exposure', () => {
  it('asks before a CI step prints a credential file into the log, on the runner or over ssh', () => {
    // A public Claude Code session (Safecast/safecast-map-MCP): a debug step added to deploy.yml and pushed to main.
    const before = '          $SSH "mkdir -p /root/safecast-web-chat-server"\n          # Write the .env file with the API key from GitHub secrets';
    const after =
      '          $SSH "mkdir -p /root/safecast-web-chat-server"\n\n          # Debug: Check OpenClaw auth file\n' +
      `          $SSH "if [ -f /root/.openclaw/agents/main/agent/auth.json ]; then echo 'File exists'; cat /root/.openclaw/agents/main/agent/auth.json | head -10; fi"\n` +
      '          # Write the .env file with the API key from GitHub secrets';
    expect(ciLogExposureRule.evaluate(edit('/home/rob/src/map/.github/workflows/deploy.yml', before, after))).toMatchObject({
      verdict: 'require_approval',
      factors: ['secrets', 'exfiltration'],
      reason: expect.stringContaining('/root/.openclaw/agents/main/agent/auth.json'),
    });
    expect(ciLogExposureRule.evaluate(ruleContext('Write', { file_path: '.gitlab-ci.yml', content: 'deploy:\n  script:\n    - cat ~/.aws/credentials\n' }))).toMatchObject({ verdict: 'require_approval' });
    expect(ciLogExposureRule.evaluate(ruleContext('Write', { file_path: '.github/workflows/ci.yml', content: 'steps:\n  - run: head -c 200 $HOME/.kube/config\n' }))).toMatchObject({ verdict: 'require_approval' });
  });

  it('leaves alone a step that checks the file without printing it, one that was there before, and files that are no CI', () => {
    expect(ciLogExposureRule.evaluate(ruleContext('Write', { file_path: '.github/workflows/ci.yml', content: 'steps:\n  - run: test -s ~/.aws/credentials && echo configured\n' }))).toBeNull();
    const kept = '      - run: cat ~/.npmrc\n';
    expect(ciLogExposureRule.evaluate(edit('.github/workflows/release.yml', kept, `${kept}      - run: npm publish\n`))).toBeNull();
    expect(ciLogExposureRule.evaluate(ruleContext('Write', { file_path: 'docs/setup.md', content: 'Run `cat ~/.aws/credentials` to see your keys.\n' }))).toBeNull();
    expect(ciLogExposureRule.evaluate(ruleContext('Write', { file_path: '.github/workflows/ci.yml', content: 'steps:\n  - run: cat package.json | jq .version\n' }))).toBeNull();
  });
});
