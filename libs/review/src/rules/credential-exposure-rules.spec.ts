import { credentialExposureRule } from './credential-exposure-rules.js';
import { bashContext as bash, ruleContext as context } from './rule-context.fixture.js';

describe('credential_exposure', () => {
  it.each([
    'echo "$GH_TOKEN" | head -c 10; echo "..."',
    'echo ${AWS_SECRET_ACCESS_KEY}',
    'printf "%s\\n" "$OPENAI_API_KEY"',
    'echo "token: ${GITHUB_TOKEN:0:10}"',
    'env | grep -i -E "github|token|gh_" | head -5',
    'printenv | grep -i secret',
    'printenv ANTHROPIC_API_KEY',
    'git credential fill <<EOF\nprotocol=https\nhost=github.com\n\nEOF',
    'cat ~/.gitconfig; git credential fill <<< "protocol=http"',
    'gh auth token',
    'gcloud auth print-access-token',
    'gcloud --quiet auth application-default print-access-token',
    'az account get-access-token --resource https://management.azure.com',
    'aws ecr get-login-password --region eu-west-1',
    'aws secretsmanager get-secret-value --secret-id prod/db --query SecretString --output text | head -c 40',
    'gcloud secrets versions access latest --secret=stripe-key',
    'kubectl create token deployer -n ci',
    'vault kv get secret/app',
    'op read op://Private/GitHub/token',
    'heroku auth:token',
    'security find-generic-password -s github -w',
    'cat /proc/self/fd/4 2>/dev/null | head -c 30',
    'read -r token < /proc/self/fd/4 && echo "${token:0:10}..."',
    'cat /proc/1/environ | tr "\\0" "\\n"',
    'cat /home/claude/.claude/remote/.session_ingress_token | head -c 20',
  ])('asks before %s', (command) => {
    expect(credentialExposureRule.evaluate(bash(command))).toMatchObject({ verdict: 'require_approval', factors: ['secrets', 'credential_access'] });
  });

  it.each([
    'echo $PATH',
    'echo "Home is $HOME, user $USER"',
    '[ -n "$GH_TOKEN" ] && echo set || echo unset',
    'echo "GH_TOKEN is ${GH_TOKEN:+set}"',
    'echo "${#GH_TOKEN} characters"',
    'echo "$GH_TOKEN" | gh auth login --with-token',
    'echo "$DOCKER_PASSWORD" | docker login -u bot --password-stdin',
    'echo "//registry.npmjs.org/:_authToken=${NPM_TOKEN}" > ~/.npmrc',
    'env | grep -i node',
    "env | grep -i -E '(github|gh_)' | sed 's/=.*/=<set>/'",
    'printenv | grep -i token | cut -d= -f1',
    'token=$(curl -s http://localhost:3001/ | grep -oE csrf-token) && echo "token: ${token:0:15}..."',
    'env NODE_ENV=test npm test',
    'printenv PATH',
    'export GITHUB_TOKEN=$(cat .secrets/token) && gh pr list',
    'git config --get credential.helper',
    'gh auth status',
    'GH_TOKEN=$(gh auth token) gh pr list',
    'curl -H "Authorization: Bearer $(gcloud auth print-access-token)" https://run.googleapis.com/v2/projects/p/locations/l/services',
    'aws ecr get-login-password --region eu-west-1 | docker login --username AWS --password-stdin 1234.dkr.ecr.eu-west-1.amazonaws.com',
    'gcloud auth list',
    'az account show',
    'aws secretsmanager list-secrets',
    'vault kv list secret/',
    'kubectl create deployment web --image=nginx',
    'grep -rn "auth_token" src/',
    'cat /proc/cpuinfo',
    // Named like a credential, holding where something is.
    'echo $SSH_AUTH_SOCK; ls -la "$SSH_AUTH_SOCK"; ssh-add -l',
    'echo "$NEXTAUTH_URL"',
  ])('lets %s through', (command) => {
    expect(credentialExposureRule.evaluate(bash(command))).toBeNull();
  });

  it('asks before a token file is read with the Read tool', () => {
    expect(credentialExposureRule.evaluate(context('Read', { file_path: '/home/claude/.claude/remote/.session_ingress_token' }))?.verdict).toBe('require_approval');
    expect(credentialExposureRule.evaluate(context('Read', { file_path: '/work/app/src/auth/token.ts' }))).toBeNull();
  });
});
