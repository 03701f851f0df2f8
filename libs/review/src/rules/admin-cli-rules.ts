import { remoteCommand } from '@warden/actions';
import { commandName, operationWords } from '../parsing/command-facts.js';
import { describesOnly } from '../parsing/parsed-action.js';
import { namesIn, segmentsRunning, type CommandNames } from '../parsing/segment-index.js';
import type { ShellSegment } from '../parsing/shell-command.js';
import { builtInRule } from './built-in-rule.js';
import type { ReviewRule } from './review-rule.js';
import { ownEntry } from '../own-entry.js';

/**
 * Command-line tools that administer things outside the project (cloud accounts, clusters, platforms,
 * secret stores, CI systems, brokers, backups, infrastructure): reading with them is harmless, their
 * verbs that delete, purge or destroy are not. One rule per pack, each naming the tool and the verb.
 */

/** Subcommand words that destroy what they name (also as `delete-bucket`, `apps:destroy`, `delete_user`). */
const DESTRUCTIVE_VERB =
  /^(?:delete|destroy|remove|rm|rb|rmi|purge|terminate|drop|wipe|erase|prune|forget|deregister|unregister|uninstall|revoke|del|flush|flushall|flushdb|truncate|nuke|teardown|repo-delete|break-lock|forget_cluster_node|reset|clear|disable|unset|cancel-deletion|delete-records)$/;
/**
 * Operation names that delete what they name, verb first or last (`delete-bucket`, `admin-delete-user`,
 * `batch-delete-items`, `item-delete`), and those that take access away (`revoke-security-group-ingress`,
 * `detach-role-policy`, `disassociate-address`).
 */
const DELETING_OPERATION =
  /^(?:(?:admin|batch|force)-)?(?:delete|remove|terminate|purge|deregister|destroy|drop|revoke|detach|disassociate)-|-(?:delete|remove|destroy|purge)$/;
/**
 * Cloud operations that take running infrastructure down or switch a safeguard off, without deleting it:
 * rebooting or stopping machines and databases, disabling alarms, keys, logging or an API
 * (`reboot-instances`, `stop-db-instance`, `disable-alarm-actions`, `gcloud services disable`).
 */
const CLOUD_DISRUPTION = /^(?:(?:admin|batch|force)-)?(?:reboot|stop(?!-query)|disable)(?:-|$)/;
/** Options that make a copy or sync delete at the destination what the source lacks. */
const DELETING_OPTION = /^--(?:delete(?:-after|-before|-during|-delay|-excluded|-destination(?:=true)?|-unmatched-destination-objects)?|remove|purge|remove-source-files)$|^-d$/;

interface Tool {
  /** How many leading words name the operation (`aws s3 rm` → 2 after the program). */
  depth: number;
  /** Verbs that are fine for this tool even though they look destructive (`docker rm` of a container is routine). */
  harmless?: RegExp;
  /** Verbs that are destructive for this tool beyond the common ones. */
  extra?: RegExp;
  /** Sync commands that delete at the destination unless told otherwise (`rclone sync`). */
  syncs?: RegExp;
}

interface Pack {
  rule: string;
  pack: string;
  what: string;
  description: string;
  tools: Record<string, Tool>;
  alternative: string;
}

const PACKS: Pack[] = [
  {
    rule: 'cloud_destruction',
    pack: 'cloud',
    what: 'cloud resources (machines, buckets, databases, DNS, CDN, queues)',
    description:
      'Deleting cloud resources with aws, gcloud, az and other providers’ CLIs, syncing storage with deletion, revoking or detaching access, and rebooting, stopping or disabling what runs (machines, alarms, keys, APIs) need approval.',
    alternative: 'List what would be deleted first (a describe/list command or --dry-run) and ask the user to delete it.',
    tools: {
      aws: { depth: 3, syncs: /^$/ },
      gcloud: { depth: 5 },
      gsutil: { depth: 2, extra: /^(?:rsync)$/ },
      az: { depth: 4 },
      azcopy: { depth: 1 },
      doctl: { depth: 4 },
      'linode-cli': { depth: 3 },
      hcloud: { depth: 3 },
      oci: { depth: 4 },
      ibmcloud: { depth: 3 },
      heroku: { depth: 1 },
      fly: { depth: 3 },
      flyctl: { depth: 3 },
      vercel: { depth: 2 },
      netlify: { depth: 2 },
      railway: { depth: 2 },
      wrangler: { depth: 3 },
      firebase: { depth: 2 },
      supabase: { depth: 3 },
      neonctl: { depth: 3 },
      pscale: { depth: 3 },
      fastly: { depth: 3 },
      s3cmd: { depth: 1, extra: /^(?:del|rb)$/ },
      rclone: { depth: 1, syncs: /^sync$/, extra: /^(?:deletefile|rmdir|rmdirs|cleanup)$/ },
      mc: { depth: 3, extra: /^(?:rb)$/ },
      restic: { depth: 2, extra: /^(?:forget|prune)$/ },
      borg: { depth: 2, extra: /^(?:rdelete|repo-delete)$/ },
      velero: { depth: 2 },
      b2: { depth: 2 },
      algolia: { depth: 2 },
      apigeecli: { depth: 2 },
      deck: { depth: 1 },
    },
  },
  {
    rule: 'container_destruction',
    pack: 'containers',
    what: 'cluster or container state (deployments, namespaces, volumes, releases)',
    description: 'kubectl/oc delete, helm uninstall, and deleting container volumes or whole systems need approval.',
    alternative: 'Describe the change and let the operator of the cluster apply it, or use a throwaway namespace you created.',
    tools: {
      kubectl: { depth: 3, extra: /^(?:drain|cordon|replace)$/ },
      oc: { depth: 3 },
      helm: { depth: 3, extra: /^(?:rollback|un)$/ },
      minikube: { depth: 1, harmless: /./ },
      kind: { depth: 2, harmless: /./ },
      docker: { depth: 2, harmless: /^(?:rm|rmi|prune|kill|stop|remove)$/ },
      podman: { depth: 2, harmless: /^(?:rm|rmi|prune|kill|stop|remove)$/ },
      nerdctl: { depth: 2, harmless: /^(?:rm|rmi|prune|kill|stop)$/ },
    },
  },
  {
    rule: 'platform_deletion',
    pack: 'platforms',
    what: 'repositories, releases, issues or payment data on a hosted platform',
    description: 'Deleting repositories, releases, issues, runs or secrets on GitHub, GitLab, Gitea, Bitbucket, Stripe and similar platforms needs approval.',
    alternative: 'Leave it in place and tell the user what can be deleted; archive a repository instead of deleting it.',
    tools: { gh: { depth: 2 }, glab: { depth: 2 }, hub: { depth: 1 }, tea: { depth: 2 }, bb: { depth: 2 }, stripe: { depth: 2 }, square: { depth: 2 }, 'sentry-cli': { depth: 2 } },
  },
  {
    rule: 'secrets_manager_deletion',
    pack: 'secrets_managers',
    what: 'secrets, keys or policies in a secrets manager',
    description: 'Deleting or destroying secrets, versions, keys and policies in Vault, 1Password, Doppler, Infisical, Bitwarden and cloud secret stores needs approval.',
    alternative: 'Rotate or disable the secret through the owner of the vault; an agent never deletes credentials.',
    tools: { vault: { depth: 3, extra: /^(?:destroy|revoke|seal|disable)$/ }, op: { depth: 2 }, doppler: { depth: 2 }, infisical: { depth: 2 }, bw: { depth: 2 }, akeyless: { depth: 2 } },
  },
  {
    rule: 'ci_deletion',
    pack: 'ci',
    what: 'CI pipelines, runners, contexts or their secrets',
    description: 'Deleting pipelines, runners, contexts, environments or CI secrets (CircleCI, GitLab runner, Jenkins, Argo CD, Buildkite) needs approval.',
    alternative: 'Change the pipeline in the repository instead and let the CI owner remove what is no longer needed.',
    tools: { circleci: { depth: 3, extra: /^(?:remove-secret|delete-secret)$/ }, 'gitlab-runner': { depth: 1 }, argocd: { depth: 2 }, tkn: { depth: 2 }, 'buildkite-agent': { depth: 2 }, travis: { depth: 1 } },
  },
  {
    rule: 'broker_admin_destruction',
    pack: 'brokers_search',
    what: 'topics, queues, streams, records, users or indexes of a message broker or search engine',
    description: 'Deleting or purging topics, queues, streams, key-value entries, users or indexes of Kafka, RabbitMQ, NATS, Elasticsearch and similar needs approval.',
    alternative: 'Inspect with the read-only subcommands (list, describe, info) and ask the operator to delete.',
    tools: {
      'kafka-topics': { depth: 0, extra: /^--delete$/ },
      'kafka-topics.sh': { depth: 0, extra: /^--delete$/ },
      'kafka-delete-records': { depth: 0, extra: /^--offset-json-file$/ },
      'kafka-delete-records.sh': { depth: 0, extra: /^--offset-json-file$/ },
      'kafka-consumer-groups': { depth: 0, extra: /^--delete$/ },
      rabbitmqctl: { depth: 1, extra: /^(?:delete_\w+|purge_queue|forget_cluster_node|reset|force_reset|clear_\w+)$/ },
      rabbitmqadmin: { depth: 1, extra: /^(?:purge)$/ },
      nats: { depth: 3 },
      'redis-cli': { depth: 1, extra: /^(?:flushall|flushdb)$/i },
      'meilisearch': { depth: 2 },
    },
  },
  {
    rule: 'infrastructure_destruction',
    pack: 'infrastructure',
    what: 'infrastructure managed as code',
    description: 'terraform/tofu/pulumi/cdk destroy, applying without review (-auto-approve, --yes), and removing state need approval; plan and preview are quiet.',
    alternative: 'Run the plan (terraform plan, pulumi preview, cdk diff) and show it to the user, who applies it.',
    tools: {
      terraform: { depth: 2, extra: /^(?:force-unlock|taint|import)$/ },
      tofu: { depth: 2, extra: /^(?:force-unlock|taint|import)$/ },
      terragrunt: { depth: 2, extra: /^(?:force-unlock|taint|run-all)$/ },
      pulumi: { depth: 2, extra: /^(?:cancel)$/ },
      cdk: { depth: 1 },
      cdktf: { depth: 1 },
      sst: { depth: 1 },
      serverless: { depth: 1 },
      sls: { depth: 1 },
    },
  },
];

/** `terraform apply -auto-approve`, `pulumi up --yes`: changing infrastructure with nobody reading the plan. */
function unattendedApply(cmd: string, args: readonly string[]): boolean {
  const verb = args.find((a) => !a.startsWith('-'));
  if ((cmd === 'terraform' || cmd === 'tofu' || cmd === 'terragrunt') && (verb === 'apply' || verb === 'run-all')) return args.some((a) => /^-?-auto-approve(?:=true)?$/.test(a) || a === '-destroy');
  if (cmd === 'pulumi' && verb === 'up') return args.some((a) => a === '--yes' || a === '-y' || a === '--skip-preview');
  if ((cmd === 'cdk' || cmd === 'cdktf') && verb === 'deploy') return args.some((a) => a === '--require-approval=never' || (a === '--require-approval' && args[args.indexOf(a) + 1] === 'never') || a === '--auto-approve');
  return false;
}

/** A destructive operation in words, and whether it takes running cloud resources down rather than deleting them. */
interface Operation {
  shown: string;
  disrupts: boolean;
}

/** The destructive operation a segment runs with a tool of the pack, or null. */
function destructiveOperation(pack: Pack, segment: ShellSegment): Operation | null {
  const cmd = commandName(segment);
  const tool = ownEntry(pack.tools, cmd);
  if (!tool || describesOnly(segment)) return null;
  const args = segment.argv.slice(1);
  if (pack.pack === 'infrastructure' && unattendedApply(cmd, args)) return { shown: `${cmd} ${args.filter((a) => !a.startsWith('-'))[0] ?? ''} ${args.filter((a) => a.startsWith('-')).join(' ')}`.trim(), disrupts: false };
  const words = tool.depth === 0 ? args : operationWords(cmd, args);
  const operation = tool.depth === 0 ? args : words.slice(0, tool.depth);
  for (const word of operation) {
    const parts = word.toLowerCase().split(/[:_]/);
    const verb = word.toLowerCase();
    // `supabase stop` stops the local development stack, not a cloud resource.
    const disrupts = pack.pack === 'cloud' && cmd !== 'supabase' && CLOUD_DISRUPTION.test(verb);
    const destructive =
      disrupts ||
      DESTRUCTIVE_VERB.test(verb) ||
      DELETING_OPERATION.test(verb) ||
      DESTRUCTIVE_VERB.test(parts.at(-1)!) ||
      DESTRUCTIVE_VERB.test(parts[0]!) ||
      tool.extra?.test(word) === true;
    if (destructive && !tool.harmless?.test(verb)) {
      // `reset`, `clear` and `disable` destroy only for the tools that say so (`rabbitmqctl reset`, `deck reset`).
      if (/^(?:reset|clear|disable|unset|cancel-deletion)$/.test(verb) && !tool.extra?.test(word) && cmd !== 'deck' && !disrupts) continue;
      return { shown: `${cmd} ${operation.slice(0, operation.indexOf(word) + 1).join(' ')}`, disrupts };
    }
  }
  const sync = tool.syncs?.test(words[0] ?? '') === true;
  const deleting = args.find((a) => DELETING_OPTION.test(a) && a !== '-d');
  if ((sync && !args.some((a) => /^--dry-?run$/.test(a))) || (deleting && /sync|mirror|rsync|cp|copy/.test(words.join(' ')))) return { shown: `${cmd} ${words.slice(0, 2).join(' ')}${deleting ? ` ${deleting}` : ''}`, disrupts: false };
  if (cmd === 'gsutil' && words[0] === 'rsync' && args.includes('-d')) return { shown: 'gsutil rsync -d', disrupts: false };
  return null;
}

function packRule(pack: Pack): ReviewRule {
  const tools = namesIn(pack.tools);
  return builtInRule({
    name: pack.rule,
    description: pack.description,
    reads: 'action',
    check({ action }) {
      for (const segment of segmentsRunning(action.segments, tools)) {
        // `kubectl exec pod -- rm x`: what runs in the pod is a command of its own (remote-host-rules.ts), not kubectl's verb.
        if (remoteCommand(segment.argv)) continue;
        const found = destructiveOperation(pack, segment);
        if (!found) continue;
        const operation = found.shown;
        const where = segment.remoteHost ? ` on ${segment.remoteHost}` : segment.via ? ` (run through ${segment.via})` : '';
        if (found.disrupts) {
          return {
            verdict: 'require_approval',
            score: 0.8,
            factors: ['shared_infrastructure', 'cloud_disruption'],
            reason: `${operation}${where} takes running cloud resources down or switches a safeguard off (alarms, keys, logging, an API); others may depend on them. A person must approve it.`,
            alternative: 'Describe the change and let the owner of the account make it.',
          };
        }
        return {
          verdict: 'require_approval',
          score: 0.85,
          factors: ['irreversible', `${pack.pack}_destruction`],
          reason: `${operation}${where} deletes or overwrites ${pack.what}; what it removes is usually gone for good and may be shared with others. A person must approve it.`,
          alternative: pack.alternative,
        };
      }
      return null;
    },
  });
}

/**
 * Programs of the machine or the project whose removals stay local: package and version managers drop a
 * dependency or a toolchain, editors and local tools clean their own state. And programs that only search
 * or show text, for which `delete` is a word to look for (`grep -rn -e delete src/`).
 */
const LOCAL_TOOLS = new Set([
  'npm', 'pnpm', 'yarn', 'bun', 'npx', 'pip', 'pip3', 'pipx', 'poetry', 'uv', 'pdm', 'conda', 'mamba', 'cargo', 'rustup', 'gem', 'bundle', 'composer', 'go', 'dotnet', 'nuget',
  'brew', 'port', 'apt', 'apt-get', 'dnf', 'yum', 'pacman', 'apk', 'snap', 'flatpak', 'nvm', 'asdf', 'mise', 'pyenv', 'rbenv', 'volta', 'sdk', 'fnm', 'git', 'docker', 'podman',
  'code', 'cursor', 'claude', 'tmux', 'screen', 'crontab', 'launchctl', 'systemctl', 'ssh-keygen', 'ssh-add', 'gpg', 'keytool', 'security', 'defaults', 'rm', 'trash',
  'parallel', 'watch', 'nohup', 'timeout', 'env', 'sudo', 'doas', 'busybox', 'curl', 'wget', 'http', 'https', 'xh', 'ssh', 'scp', 'rsync', 'psql', 'mysql', 'sqlite3', 'mongosh', 'redis-cli',
  'find', 'xargs', 'sed', 'awk', 'make', 'just', 'task', 'mvn', 'gradle', 'ant', 'sbt', 'flutter', 'dart', 'swift', 'xcrun', 'adb', 'emulator', 'avdmanager', 'sdkmanager',
  'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'echo', 'printf', 'cat', 'less', 'more', 'head', 'tail', 'jq', 'yq', 'wc', 'sort', 'uniq', 'cut', 'tr', 'select-string', 'findstr',
]);

/** Programs the other rules of this file leave alone: the tools of the packs, and those whose removals stay local. */
const UNKNOWN_CLI: CommandNames = { has: (name) => name !== '' && !LOCAL_TOOLS.has(name) && !PACKS.some((p) => ownEntry(p.tools, name)) };
/** Compared in any case (`pd service DELETE P123`). */
const DELETING_VERB = /^(?:delete|destroy|purge|remove|rm|drop|terminate|wipe|erase|truncate|nuke)$|^(?:delete|destroy|purge|remove|drop|terminate)-[\w-]+$/i;

/** A verb that deletes, at the head of a subcommand path, followed by what it deletes: `pd service delete P123`, `splunk remove index main`. */
function unknownCliDeletion(segment: ShellSegment): string | null {
  const { argv } = segment;
  // Only the first three operands matter, found in place: most commands have no deleting verb among them.
  let first = 0;
  let second = 0;
  let third = 0;
  for (let i = 1; i < argv.length && third === 0; i++) {
    if (argv[i]!.startsWith('-')) continue;
    if (first === 0) first = i;
    else if (second === 0) second = i;
    else third = i;
  }
  // A verb needs an operand after it, what it deletes. `tool rm -rf x`: rm right after a program is a
  // command it runs (reviewed as one), not its verb.
  const verb = second !== 0 && !/^rm$/i.test(argv[first]!) && DELETING_VERB.test(argv[first]!) ? 1 : third !== 0 && DELETING_VERB.test(argv[second]!) ? 2 : 0;
  if (verb === 0 || describesOnly(segment) || segment.query) return null;
  return `${commandName(segment)} ${argv[first]} ${argv[second]}${verb === 2 ? ` ${argv[third]}` : ''}`;
}

export const adminCliDeletionRule = builtInRule({
  name: 'admin_cli_deletion',
  description: 'A command-line tool Warden has no pack for, asked to delete, destroy or purge something it names (pd service delete P123): such tools administer shared services; it needs approval.',
  reads: 'action',
  check({ action }) {
    for (const segment of segmentsRunning(action.segments, UNKNOWN_CLI)) {
      const operation = unknownCliDeletion(segment);
      if (!operation) continue;
      return {
        verdict: 'require_approval',
        score: 0.8,
        factors: ['irreversible', 'admin_cli_deletion'],
        reason: `${operation} asks ${commandName(segment)} to delete what it names; tools like it administer shared services (monitoring, feature flags, search, queues), where a deletion is usually for good. A person must approve it.`,
        alternative: 'Look it up with the tool’s list or get command first, and ask the user to delete it.',
      };
    }
    return null;
  },
});

export const ADMIN_CLI_RULES: ReviewRule[] = [...PACKS.map(packRule), adminCliDeletionRule];
