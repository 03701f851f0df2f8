import { commandName, operationWords } from '../parsing/command-facts.js';
import { describesOnly } from '../parsing/parsed-action.js';
import { segmentsRunning } from '../parsing/segment-index.js';
import type { ShellSegment } from '../parsing/shell-command.js';
import { builtInRule } from './built-in-rule.js';

interface Deployment {
  what: string;
  /** Destroys infrastructure whatever the environment. */
  destroys: boolean;
  /** The command itself says production (`vercel --prod`). */
  production: boolean;
}

/** `prod`, `production`, `deploy:prod`, `--stage=production`; not `preprod` or `product`. */
const PRODUCTION = /(?:^|[^a-z0-9])prod(?:uction)?(?:[^a-z0-9]|$)/i;
/** `NODE_ENV=production npm run deploy`: the shell parser drops assignments, so they are read from the line. */
const PRODUCTION_ASSIGNMENT = /\b[A-Z_]*(?:ENV|ENVIRONMENT|STAGE)=["']?prod(?:uction)?\b/i;
const KUBECTL_CHANGES = ['apply', 'delete', 'replace', 'patch', 'scale'];
const HELM_CHANGES = ['upgrade', 'install', 'uninstall', 'delete', 'rollback'];

const deployment = (what: string, destroys = false, production = false): Deployment => ({ what, destroys, production });
/** The programs deploymentIn knows. */
const DEPLOYERS = new Set([
  'kubectl', 'oc', 'helm', 'terraform', 'tofu', 'terragrunt', 'pulumi', 'cdk', 'vercel', 'netlify', 'fly', 'flyctl', 'serverless', 'sls', 'firebase', 'gcloud', 'npm', 'pnpm', 'yarn', 'bun',
]);

function deploymentIn(segment: ShellSegment): Deployment | null {
  // `helm install … --dry-run`, `--help`: nothing is deployed.
  if (describesOnly(segment)) return null;
  const cmd = commandName(segment);
  const args = segment.argv.slice(1);
  const words = operationWords(cmd, args);
  // Operation words from the words that are no option's value; options themselves from every argument.
  const has = (word: string) => (word.startsWith('-') ? args : words).includes(word);
  switch (cmd) {
    case 'kubectl':
    case 'oc': {
      if (has('delete') && args.some((a) => a === 'namespace' || a === 'ns' || /^(?:namespaces?|ns)\//.test(a))) return deployment(`${cmd} delete namespace`, true);
      const verb = KUBECTL_CHANGES.find(has);
      return verb ? deployment(`${cmd} ${verb}`) : null;
    }
    case 'helm': {
      const verb = HELM_CHANGES.find(has);
      return verb ? deployment(`helm ${verb}`) : null;
    }
    case 'terraform':
    case 'tofu':
    case 'terragrunt':
      if (has('destroy') || (has('apply') && has('-destroy'))) return deployment(`${cmd} destroy`, true);
      return has('apply') ? deployment(`${cmd} apply`) : null;
    case 'pulumi':
      if (has('destroy')) return deployment('pulumi destroy', true);
      return has('up') ? deployment('pulumi up') : null;
    case 'cdk':
      if (has('destroy')) return deployment('cdk destroy', true);
      return has('deploy') ? deployment('cdk deploy') : null;
    case 'vercel':
    case 'netlify':
      if (has('--prod') || has('--production')) return deployment(`${cmd} --prod`, false, true);
      return has('deploy') || (cmd === 'vercel' && !args.some((a) => !a.startsWith('-'))) ? deployment(`${cmd} deploy`) : null;
    case 'fly':
    case 'flyctl':
    case 'serverless':
    case 'sls':
    case 'firebase':
    case 'gcloud':
      return has('deploy') ? deployment(`${cmd} deploy`) : null;
    case 'npm':
    case 'pnpm':
    case 'yarn':
    case 'bun': {
      // `pnpm deploy` is pnpm's own command (it copies a package), not a script.
      const script = args[0] === 'run' || args[0] === 'run-script' ? args[1] : cmd === 'npm' || (cmd === 'pnpm' && args[0] === 'deploy') ? undefined : args[0];
      return script && /^deploy|[:-]deploy/.test(script) ? deployment(`${cmd} run ${script}`) : null;
    }
    default:
      return null;
  }
}

export const productionDeployRule = builtInRule({
  name: 'production_deploy',
  description: 'Deploying to production (by its arguments or the session environment) and destroying infrastructure need approval.',
  reads: 'session',
  check({ action, session }) {
    if (action.command === undefined) return null;
    for (const segment of segmentsRunning(action.segments, DEPLOYERS)) {
      const found = deploymentIn(segment);
      if (!found) continue;
      if (found.destroys) {
        return {
          verdict: 'require_approval',
          score: 0.85,
          factors: ['infrastructure', 'irreversible'],
          reason: `${found.what} tears down real infrastructure and the data in it. A person must approve it, whatever the environment.`,
          alternative: 'Plan the change first (terraform plan -destroy, kubectl get) and report what would go.',
        };
      }
      const environment = session.context.environment;
      const production =
        found.production || segment.argv.some((a) => PRODUCTION.test(a)) || PRODUCTION_ASSIGNMENT.test(action.command) || (environment !== undefined && PRODUCTION.test(environment));
      if (!production) continue;
      return {
        verdict: 'require_approval',
        score: 0.8,
        factors: ['deployment', 'production'],
        reason: `${found.what} changes production. A person must approve production deployments.`,
        alternative: 'Deploy to a staging environment first, or stop and ask for approval with what the deployment changes.',
      };
    }
    return null;
  },
});
