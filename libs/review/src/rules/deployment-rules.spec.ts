import { parseAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import { productionDeployRule } from './deployment-rules.js';
import type { RuleContext } from './review-rule.js';

function bash(command: string, environment?: string): RuleContext {
  const action = parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, '/work/app');
  const session = new ReviewSession('agent-1', 's1', Date.now());
  if (environment) session.declare({}, { environment });
  return { action, session, limits: { maxFileOperations: 500 }, inScope: (p) => p.startsWith('/work/app') };
}
const verdictOf = (command: string, environment?: string) => productionDeployRule.evaluate(bash(command, environment))?.verdict ?? null;

describe('production_deploy', () => {
  it.each([
    'kubectl --context prod apply -f k8s/',
    'helm upgrade api ./chart -n production',
    'vercel --prod',
    'vercel deploy --prod --yes',
    'fly deploy --app api-prod',
    'serverless deploy --stage prod',
    'npm run deploy:prod',
    'NODE_ENV=production npm run deploy',
    'terraform -chdir=infra/prod apply -auto-approve',
  ])('needs approval for %s', (command) => {
    const finding = productionDeployRule.evaluate(bash(command));
    expect(finding).toMatchObject({ verdict: 'require_approval', factors: ['deployment', 'production'], reason: expect.stringContaining('changes production') });
  });

  it.each(['kubectl apply -f k8s/', 'cdk deploy', 'npm run deploy', 'helm install api ./chart', 'yarn deploy', 'gcloud run deploy api'])(
    'needs approval for %s when the session works on production',
    (command) => {
      expect(verdictOf(command, 'production')).toBe('require_approval');
      expect(verdictOf(command, 'staging')).toBeNull();
    },
  );

  it.each(['terraform destroy', 'terraform apply -destroy', 'kubectl delete namespace demo', 'kubectl delete ns/demo', 'pulumi destroy --yes', 'cdk destroy'])(
    'always needs approval for %s',
    (command) => {
      const finding = productionDeployRule.evaluate(bash(command, 'dev'));
      expect(finding).toMatchObject({ verdict: 'require_approval', factors: ['infrastructure', 'irreversible'] });
    },
  );

  it.each([
    'terraform plan -var env=production',
    'kubectl get pods -n production',
    'npm run deploy:staging',
    'npm run build:prod',
    'kubectl apply -f k8s/ --context preprod',
    'helm template api ./chart -f values-prod.yaml',
  ])('allows %s', (command) => {
    expect(verdictOf(command)).toBeNull();
  });

  it("does not take pnpm's own deploy command (a copy) for a deployment", () => {
    expect(verdictOf('pnpm deploy --filter api out/', 'production')).toBeNull();
  });

  it('ignores actions without a command', () => {
    const action = parseAction({ kind: 'tool_use', tool: 'Read', input: { file_path: 'deploy/prod.yaml' } }, '/work/app');
    const session = new ReviewSession('agent-1', 's1', Date.now());
    expect(productionDeployRule.evaluate({ action, session, limits: { maxFileOperations: 500 }, inScope: () => true })).toBeNull();
  });
});

describe('production_deploy reads what is deployed, not option values', () => {
  it.each(['kubectl -n delete get pods', 'kubectl --context apply get deployments', 'helm install web ./chart -n prod --dry-run'])('finds no deployment in %s', (command) => {
    expect(verdictOf(command)).toBeNull();
  });

  it('still finds one after a valued option', () => {
    expect(verdictOf('kubectl -n web delete namespace web')).toBe('require_approval');
  });
});
