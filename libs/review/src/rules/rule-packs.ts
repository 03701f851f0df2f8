/**
 * The built-in rules grouped in packs by what they protect. A pack can be switched off or to shadow in the
 * configuration (`rules.packs.<name>: {enabled, shadow}`); its rules can still be named one by one in
 * `rules.disabled` and `rules.shadow`.
 */
export interface RulePack {
  name: string;
  description: string;
  rules: readonly string[];
}

export const RULE_PACKS: readonly RulePack[] = [
  {
    name: 'self_protection',
    description: "Warden's own supervision: every supervised agent's hook and settings files, Warden's tokens and state (.warden/), hooks switched off through the agent's CLI.",
    rules: ['supervision_tampering'],
  },
  {
    name: 'harm',
    description: 'The kinds of harm on Linux, macOS and Windows (README, "Kinds of harm"): system data destroyed, safety controls switched off, secrets leaving by any channel, privileges raised, services exposed, shared infrastructure taken down.',
    rules: ['system_data_destruction', 'safety_control_disabled', 'secret_leak', 'privilege_escalation', 'network_exposure', 'shared_infrastructure_takedown', 'hidden_code_execution'],
  },
  {
    name: 'filesystem',
    description: 'Deleting, overwriting or opening up files: rm -r of the system, the home directory, the project itself or paths outside it; find -delete; chmod 777; file-operation limits.',
    rules: ['destructive_root_deletion', 'prevent_recursive_deletion', 'limit_file_operations', 'deletion_outside_project', 'recursive_deletion', 'world_writable_system', 'world_writable_permissions'],
  },
  {
    name: 'git',
    description: "Git history and working tree: reset --hard, clean -f, checkout/restore of uncommitted work, stash clear/drop, branch -D, force pushes in every spelling, filter-branch, reflog expire, remote branch deletion, skipped hooks, credential files committed, and committed or pushed after a person let them be staged.",
    rules: ['history_destruction', 'force_push', 'hook_bypass', 'secret_commit', 'secret_push'],
  },
  { name: 'database', description: 'DROP, TRUNCATE, DELETE/UPDATE without WHERE through SQL clients and database tools; framework resets (prisma migrate reset, rails db:drop).', rules: ['database_destruction'] },
  { name: 'containers', description: 'kubectl/oc delete, helm uninstall, container volumes and system prunes, containers with root access to the host.', rules: ['container_destruction', 'container_data_destruction', 'container_host_access'] },
  { name: 'cloud', description: 'Cloud CLIs (aws, gcloud, az, doctl, heroku, fly, vercel …), object storage (s3, gsutil, azcopy, rclone, mc), backups (restic, borg, velero): deletions and syncs that delete.', rules: ['cloud_destruction'] },
  {
    name: 'platforms',
    description: 'Hosted platforms (gh, glab, tea, stripe …): deleting repositories, releases, issues, secrets; and any other admin CLI asked to delete what it names.',
    rules: ['platform_deletion', 'admin_cli_deletion'],
  },
  { name: 'secrets_managers', description: 'Vault, 1Password, Doppler, Infisical, Bitwarden: deleting or destroying secrets, keys and policies.', rules: ['secrets_manager_deletion'] },
  { name: 'ci', description: 'CI systems (CircleCI, GitLab runners, Argo CD, Tekton, Buildkite): deleting pipelines, runners, contexts and their secrets.', rules: ['ci_deletion'] },
  { name: 'brokers_search', description: 'Message brokers and search engines (Kafka, RabbitMQ, NATS, Redis, Elasticsearch, Meilisearch …), by CLI or HTTP: deleting topics, queues, streams, indexes; HTTP DELETE against APIs.', rules: ['broker_admin_destruction', 'http_api_deletion'] },
  { name: 'infrastructure', description: 'Infrastructure as code: terraform/tofu/pulumi/cdk destroy, apply without review (-auto-approve), state removal; deployments to production.', rules: ['infrastructure_destruction', 'production_deploy'] },
  { name: 'remote', description: 'Other machines, containers and pods: commands over ssh, docker exec and kubectl exec (reviewed as commands on that host), rebooting or deleting there, copies onto system paths of a remote host, syncs that delete.', rules: ['remote_shell', 'remote_system_copy', 'remote_shutdown', 'remote_deletion'] },
  { name: 'system', description: "The machine itself: disks, fork bombs, shutdown, killing every process, privileges, persistence and the user's environment, the machine's packages.", rules: ['disk_destruction', 'fork_bomb', 'system_shutdown', 'mass_process_kill', 'privileged_command', 'persistence_install', 'persistent_environment', 'system_package_change'] },
  { name: 'execution', description: 'Code nobody has read: downloaded scripts piped into a shell, obfuscated commands, reverse shells, terminals served over the network.', rules: ['remote_script_execution', 'obfuscated_execution', 'download_and_run', 'reverse_shell', 'network_shell'] },
  { name: 'shell', description: 'The command line itself: lines that do not parse, code run from a pipe Warden cannot read.', rules: ['unparseable_command', 'unreadable_code'] },
  { name: 'secrets', description: 'Credentials: sending secrets over the network, reading private keys, printing credentials (also into a CI log), secrets written in clear text, changing credential files.', rules: ['secret_exfiltration', 'secret_file_read', 'credential_exposure', 'secrets_in_arguments', 'secret_file_write', 'ci_log_exposure'] },
  { name: 'scope', description: "The session's project: writing or reading outside the expected paths.", rules: ['write_outside_project', 'read_outside_project'] },
  { name: 'publishing', description: 'Publishing packages, images and releases.', rules: ['package_publish'] },
  { name: 'network', description: 'Requests to external hosts, and TLS verification switched off.', rules: ['warn_external_network', 'tls_verification_disabled'] },
  { name: 'test_integrity', description: "The project's checks: skipped tests, rewritten assertions after a failure, replaced git hooks, CI checks that cannot fail.", rules: ['test_bypass', 'assertion_rewrite', 'hook_tampering', 'ci_check_bypass'] },
];

export const PACK_NAMES: readonly string[] = RULE_PACKS.map((p) => p.name);

/** The rules the packs switched off or to shadow stand for. */
export function packSwitches(packs: Partial<Record<string, { enabled?: boolean; shadow?: boolean }>>): { disabled: string[]; shadow: string[] } {
  const disabled: string[] = [];
  const shadow: string[] = [];
  for (const pack of RULE_PACKS) {
    const setting = packs[pack.name];
    if (setting?.enabled === false) disabled.push(...pack.rules);
    else if (setting?.shadow === true) shadow.push(...pack.rules);
  }
  return { disabled, shadow };
}
