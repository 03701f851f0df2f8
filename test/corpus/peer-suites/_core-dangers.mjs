// Dangerous commands a careful guard anywhere would agree on: the `core` label of a blocked vector, for the
// suites whose tests give no such label of their own (destructive_command_guard, dippy). Everything else blocked is `policy`.
export const CORE_BLOCK = [
  // filesystem: rm -r -f of root, home, system dirs, wildcard at root, or of parent dirs
  [/(^|[\s;&|(`$'"]|\/)rm\s+(?=[^;&|]*(-[a-zA-Z]*r|--recursive|-R))[^;&|]*\s["']?(\/|\/\*|(~|\$HOME|\$\{HOME\})(\/[^\s;&|"']*)?|\/(etc|usr|bin|sbin|lib|lib64|boot|var|opt|home|root|System|Library|Users|dev|proc|sys)(\/[^\s;&|"']*)?|[^\s;&|"']*\.\.\/(etc|usr|bin|home|root|var)\b[^\s;&|"']*|\.\.\/?|\*|\.\*?)["']?(\s|$|;|&|\||\))/, 'destroy_data'],
  [/\brm\s+(-[a-zA-Z]*\s+)*--no-preserve-root|\brm\s+(-\w+\s+)*\/etc\/(passwd|shadow|sudoers|fstab)\b|\.destroy_all\b/, 'destroy_data'],
  [/shutil\.rmtree\(\s*["'](\/|~|\/etc|\/usr|\/home)(\/[\w.]*)?["']|FileUtils\.rm_rf\(\s*["']\/|\.rmSync\(\s*['"]\/(etc)?['"]|rmdirSync\(\s*['"]\/|os\.remove\(\s*["']\/etc|unlink\s+glob\(\s*["']\/etc|rm -rf \/["'\s)\]]|\brm -rf \/(etc|usr|home)\b|['"]rm['"],\s*['"]-rf['"],\s*['"]\/['"]/, 'destroy_data'],
  [/\bfind\s+(\/|~|\$HOME|\/(etc|usr|home|var|bin|lib))\/?\s.*(-delete\b|-exec\s+rm)/, 'destroy_data'],
  // git
  [/\bgit\b.*\breset\b.*--hard\b|\bgit\b.*\breset\b.*--merge\b/, 'git_history'],
  [/\bgit\b.*\bclean\b\s+(?!.*(-n\b|--dry-run))(-[a-zA-Z]*f|--force)/, 'git_history'],
  [/\bgit\b.*\bpush\b.*(\s--force(?!-with-lease|-if-includes)\b|\s-[a-zA-Z]*f\b|\s\+[\w\/.-]+)/, 'git_history'],
  [/\bgit\b.*\bcheckout\b\s+(\S+\s+)?--\s+\S/, 'git_history'],
  [/\bgit\b.*\brestore\b(?!.*--staged(?!.*(--worktree|-W)))/, 'git_history'],
  [/\bgit\b.*\bstash\s+clear\b/, 'git_history'],
  [/\bgit\s+filter-branch\b|\bgit\b.*\breflog\s+expire\b.*--expire=now|\bgit\s+gc\b.*--prune=now/, 'git_history'],
  // disks / devices
  [/\bmkfs(\.\w+)?\b|\bwipefs\b|\bdd\b.*\bof=\/dev\/|>\s*\/dev\/(sd|nvme|hd|disk)|\bshred\b.*\/dev\/|\bfdisk\b\s+\/dev|\bparted\b.*\s(rm|mklabel)\b|\bsgdisk\b.*(-Z|--zap)|\bdiskutil\s+(eraseDisk|eraseVolume|zeroDisk|secureErase|partitionDisk)\b|\bmdadm\b.*--zero-superblock|\blvremove\b|\bvgremove\b|\bpvremove\b|\bzpool\s+destroy\b|\bzfs\s+destroy\b|\bblkdiscard\b/, 'destroy_data'],
  // permissions on system roots
  [/\bchmod\b\s+(-[a-zA-Z]*R[a-zA-Z]*\s+|--recursive\s+)?(0?777|a\+rwx|o\+w)\s+(\/|\/etc|\/usr|\/var|\/bin|~)(\s|$)|\bchown\b\s+(-[a-zA-Z]*R[a-zA-Z]*|--recursive)\s+\S+\s+(\/|\/etc|\/usr|\/var)(\s|$)|\bchmod\b.*\s(-R|--recursive)\b.*\s\/(\s|$)|\bchmod\s+[0-7]*\s+\/etc\/(shadow|passwd|sudoers)/, 'privilege'],
  // databases: drop / truncate / flush / delete without where
  [/\bDROP\s+(DATABASE|SCHEMA|TABLE)\b|\bTRUNCATE\b|\bFLUSHALL\b|\bFLUSHDB\b|\bdropDatabase\b|\.drop\(\)|\bdropdb\b|\bmysqladmin\b.*\bdrop\b|\bDELETE\s+FROM\s+\w+\s*(;|"|'|$)|deleteMany\(\s*\{\s*\}\s*\)|\bredis-cli\b.*\b(FLUSHALL|FLUSHDB)\b/, 'destroy_data'],
  // infrastructure teardown
  [/\bterraform\s+(destroy|apply\s.*-destroy)\b|\bpulumi\s+(destroy|stack\s+rm)\b|\btofu\s+destroy\b|\bcdk\s+destroy\b/, 'infrastructure'],
  [/\bkubectl\b.*\bdelete\s+(namespace|ns|all|--all|nodes?|pv|persistentvolume|pvc|persistentvolumeclaim|crd|customresourcedefinition)\b|\bkubectl\b.*\bdelete\b.*(--all\b|--all-namespaces|-A\b)|\bkubectl\b.*\bdrain\b/, 'infrastructure'],
  [/\bhelm\s+(uninstall|delete|del|un)\b.*|\bvelero\s+(backup|snapshot)\s+delete\b/, 'infrastructure'],
  [/^\s*(sudo\s+)?(shutdown|reboot|halt|poweroff)\b|\binit\s+[06]\b|\bsystemctl\s+(poweroff|reboot|halt)\b/, 'infrastructure'],
  [/\baws\s+s3\s+rb\b.*--force|\baws\s+s3\s+rm\b.*--recursive|\baws\s+s3api\s+delete-bucket(?![\w-])/, 'destroy_data'],
  [/\baws\s+\S+\s+(delete-db-(instance|cluster)|delete-table|delete-bucket|delete-stack|delete-cluster|delete-file-system|delete-volume|delete-snapshot|delete-db-snapshot|delete-db-cluster-snapshot|delete-backup|delete-secret(?=.*--force-delete-without-recovery)|schedule-key-deletion|terminate-instances|delete-repository|delete-domain)(?![\w-])/, 'infrastructure'],
  [/\bgcloud\b.*\b(sql\s+instances|container\s+clusters|compute\s+instances|compute\s+disks|projects|storage\s+buckets|spanner\s+instances|bigtable\s+instances|functions|run\s+services|secrets|kms\s+keys?\s+versions?)\s+(delete|destroy)\b|\bgsutil\b.*\brm\b.*-r|\bgsutil\s+rb\b|\bgcloud\s+storage\s+rm\b.*--recursive/, 'infrastructure'],
  [/\baz\s+(group|vm|aks|sql\s+(server|db)|storage\s+account|keyvault|cosmosdb|webapp|postgres\s+(server|flexible-server)|mysql\s+(server|flexible-server))\s+(delete|purge)\b|\baz\s+storage\s+container\s+delete\b|\baz\s+storage\s+blob\s+delete-batch\b/, 'infrastructure'],
  [/\bvault\s+(secrets\s+disable|kv\s+(destroy|metadata\s+delete)|delete)\b|\bop\s+(vault|item)\s+delete\b|\bdoppler\s+(projects|environments|secrets)\s+delete\b/, 'destroy_data'],
  [/\bdocker\s+(system|volume)\s+prune\b|\bdocker\s+volume\s+rm\b|\bdocker\s+rm\b.*-f.*\$\(docker\s+ps|\bpodman\s+(system|volume)\s+(prune|reset)\b|\bdocker\s+compose\b.*\bdown\b.*(-v|--volumes)\b|\bdocker-compose\b.*\bdown\b.*(-v|--volumes)\b/, 'destroy_data'],
  [/\b(mongo|mongosh)\b.*\b(dropDatabase|drop)\b|\bsqlite3\b.*\bDROP\b/, 'destroy_data'],
  [/\brsync\b.*\s--(delete|del|delete-\w+|remove-source-files)\b.*\s\/(\s|$)|\brclone\s+(purge|delete)\b/, 'destroy_data'],
  [/\bkafka-topics\b.*--delete\b|\brabbitmqctl\s+(reset|force_reset|delete_vhost)\b|\bnats\s+stream\s+(rm|delete|purge)\b|\bcurl\b.*-X\s*DELETE\b.*:9200\/(_all|\*)/, 'infrastructure'],
  [/\brestic\b.*\bforget\b.*(--prune|--unsafe-allow-remove-all)|\bborg\s+(delete|rdelete|repo-delete)\b(?!.*--cache-only)/, 'destroy_data'],
  [/\bgh\s+repo\s+delete\b|\bglab\s+repo\s+delete\b|\bgh\s+api\b.*-X\s*DELETE\b.*\/repos\/[^/\s]+\/[^/\s]+(\s|$|")/, 'infrastructure'],
  [/\b(curl|wget)\b[^|]*\|\s*(sudo\s+)?(ba|z|k|da)?sh\b/, 'remote_code'],
  [/\biptables\s+(-F|--flush)\b|\bsystemctl\s+(stop|disable|mask)\s+(sshd?|firewalld|ufw|auditd)\b|\bufw\s+disable\b|\bsetenforce\s+0\b/, 'disable_safety'],
  [/\bkill\s+-9\s+-1\b|\bkillall5\b|:\(\)\s*\{\s*:\|:&\s*\};:/, 'destroy_data'],
];
