// Rebuilds shellfirm-more.jsonl from a bare git directory of kaplanelad/shellfirm.
// Usage: node shellfirm-more.mjs <git-dir> <commit> [<previous shellfirm.jsonl>] > shellfirm-more.jsonl
// Source: the shellfirm/tests/checks/*.yaml files NOT read by shellfirm.mjs
// (that one read base, shell, network, git). Read by shellfirm/tests/checks.rs: each case is
// {test, description, expect_ids}; a non-empty expect_ids means shellfirm's checks match
// (challenge = asks approval / denies) -> "block"; an empty list means nothing matches -> "allow".
// Commands already in shellfirm.jsonl (the output of shellfirm.mjs; third argument, default ./shellfirm.jsonl) are dropped.
// Duplicate commands inside the suite are kept once (first occurrence).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const [gitDir, commit, prevPath = 'shellfirm.jsonl'] = process.argv.slice(2);
if (!gitDir || !commit) { console.error('usage: node shellfirm-more.mjs <git-dir> <commit> [prev.jsonl]'); process.exit(2); }
const REPO = 'kaplanelad/shellfirm';
const NAMES = ['aws', 'azure', 'database', 'docker', 'flyio', 'fs', 'gcp', 'github', 'heroku', 'kubernetes',
  'mongodb', 'mysql', 'netlify', 'npm', 'psql', 'redis', 'terraform', 'vercel'];
const FILES = NAMES.map(n => `shellfirm/tests/checks/${n}.yaml`);

// ---- judgement table: commands whose expected label any careful guard would share ("core") ----
// Everything else is "policy". Keys are the exact test strings.
// Rules used (see ../peer-suites-4/SOURCES.md):
//  - core dangerous: recursive delete / chmod-with-mode / chown of / or system trees or of the whole cwd
//    (globs, ., ..); find -delete over / , system trees or the whole cwd; dd/mkfs onto block devices;
//    partition-table wipes (parted mklabel/rm, sfdisk --delete or restore); LVM removes; luksFormat;
//    sudo mv over /dev/null; docker rm -f of every container; docker run --privileged;
//    irreversible deletion of a NAMED cloud/hosting resource (or the current one where the CLI resolves it:
//    gh repo delete, heroku apps:destroy); making a repo public; terraform destroy -auto-approve (untargeted);
//    DROP statements actually sent to a server through mysql/psql/mongosh with a quoted statement;
//    redis-cli FLUSHALL/FLUSHDB; npm/pnpm/yarn unpublish of a version or with --force.
//  - core safe: plainly read-only listings and queries.
//  - policy: everything else, including bare SQL / redis / mongo-shell text (as a Bash command it is
//    "command not found" or a bash syntax error), unquoted `-e DROP ...` forms that only send "DROP",
//    commands missing their required operand (chmod -R /, rm -fv /, k delete ns), dry-run and typo probes,
//    project-local writes and deletes, prunes, stops, restarts, env/secret unsets, and the peer's gaps
//    (it allows `mkfs.ext4 -F /dev/sda1` and `truncate --size 0 file.txt`).
const CORE_DANGEROUS = [
  // fs: dd onto block devices
  'dd if=file of=/dev/sda seek=1', 'dd  if=file  of=/dev/sda    seek=1', 'dd  seek=1   of=/dev/sda    if=file',
  'dd conv=notrunc of=/dev/sdb if=file', 'dd if=file of=/dev/sda conv=notrunc', 'dd if=file of=/dev/sda seek=2048 bs=512',
  'dd if=file of=/dev/sda conv=notrunc,noerror', 'dd if=file of=/dev/sda seek=1 skip=1', 'dd if=file of=/dev/sda bs=4M seek=1',
  'dd if=image.img of=/dev/sda', 'dd  if=image.img    of=/dev/sda', 'dd      of=/dev/sda if=image.img', 'dd if=image.img of=/dev/sdb',
  'dd if=image.img of=/dev/mmcblk0', 'dd if=image.img of=/dev/sda1', 'dd if=image.img of=/dev/sda bs=4M',
  'dd   if=image.img   of=/dev/sda', 'dd   of=/dev/sda   if=image.img', 'sudo dd if=image.img of=/dev/sda',
  'sudo dd of=/dev/sda if=image.img', 'dd if=image.img of=/dev/sda bs=4M count=1', 'dd if=image.img of=/dev/sda bs=4M seek=1',
  'dd if=image.img of=/dev/sda bs=4M conv=notrunc', 'dd if=image.img of=/dev/sda2', 'dd if=image.img of=/dev/mmcblk0p2',
  'dd if=image.img of=/dev/sda status=progress', 'dd if=image.img of=/dev/sda status=none', 'dd if=image.img of=/dev/sda status=noxfer',
  'dd if=image.img of=/dev/nvme0n1',
  // fs: find -delete over /, system trees, or the whole cwd
  'find . -delete', 'find / -delete', 'find   .   -delete', 'find   /   -delete', 'sudo find . -delete', 'sudo find / -delete',
  'find . -type f -delete', "find / -name '*.txt' -delete", 'find /home -delete', 'find /var -delete', 'find /usr -delete',
  'find / -type d -empty -delete',
  // fs: encryption header / LVM / mkfs / partition-table wipes
  'cryptsetup luksFormat /dev/sda1', 'cryptsetup  luksFormat    /dev/sda1', 'cryptsetup luksFormat /dev/nvme0n1p1',
  'lvremove /dev/vg0/lv1', 'pvremove /dev/sda1', 'vgremove vg0', 'lvremove -f /dev/vg0/lv1', 'pvremove -ff /dev/sda1',
  'vgremove -f vg0', 'lvremove   /dev/vg0/lv1', 'pvremove   /dev/sda1', 'vgremove   vg0', 'sudo lvremove /dev/vg0/lv1',
  'sudo pvremove /dev/sda1', 'sudo vgremove vg0', 'lvremove --force /dev/vg0/lv1', 'pvremove --force --force /dev/sda1',
  'vgremove --force vg0', 'lvremove /dev/mapper/vg0-lv1', 'pvremove /dev/sdb1', 'vgremove vg1', 'lvremove -y /dev/vg0/lv1',
  'pvremove -y /dev/sda1', 'vgremove -y vg0', 'lvremove /dev/vg0/lv2', 'pvremove /dev/sdc1', 'vgremove vg2',
  'lvremove -v /dev/vg0/lv1', 'pvremove -v /dev/sda1', 'vgremove -v vg0', 'lvremove -f -y /dev/vg0/lv1',
  'pvremove -ff -y /dev/sda1', 'vgremove -f -y vg0', 'lvremove /dev/vg0/lv1 /dev/vg0/lv2', 'pvremove /dev/sda1 /dev/sdb1',
  'vgremove vg0 vg1',
  'mkfs.ext4 /dev/sda1', 'mkfs.ext4      /dev/sda1', 'mkfs.ext3 /dev/sdb2', 'mkfs -t ext4 /dev/sda', 'mkfs.fat /dev/mmcblk0p1',
  'mkfs.xfs /dev/sdc', 'mkfs.btrfs /dev/mmcblk0', 'mkfs.ext4   /dev/sda1', 'mkfs   -t   ext4   /dev/sda', 'sudo mkfs.ext4 /dev/sda1',
  'sudo mkfs -t ext4 /dev/sda', 'mkfs.ext4 /dev/sda2', 'mkfs.ext4 /dev/sdb', 'mkfs.ext4 /dev/mmcblk0p2', 'mkfs.ntfs /dev/sda1',
  'mkfs -t ntfs /dev/sda', 'mkfs.ext4 /dev/sda3', 'mkfs.ext4 /dev/sdc1', 'mkfs.ext4 /dev/mmcblk0p3',
  'mkfs.ext4 /dev/nvme0n1p1', 'mkfs.ext4 /dev/nvme0n1', 'mkfs.vfat /dev/sda1', 'mkfs.ext2 /dev/sda1',
  'parted /dev/sda mklabel gpt', 'parted    /dev/sda    mklabel gpt', 'parted /dev/sda rm 1', 'parted   /dev/sda   mklabel   gpt',
  'sudo parted /dev/sda mklabel gpt', 'sudo   parted   /dev/sda   mklabel   gpt', 'parted /dev/sda mklabel gpt --script',
  'parted --script /dev/sda mklabel gpt', 'parted /dev/mmcblk0 mklabel gpt', 'parted /dev/sda1 mklabel gpt',
  'parted /dev/sdc mklabel gpt', 'parted /dev/mmcblk0p1 mklabel gpt', 'parted /dev/sda2 mklabel gpt',
  'parted -a optimal /dev/sda mklabel gpt', 'parted -s /dev/sda mklabel gpt',
  'parted /dev/sda mklabel gpt mkpart primary ext4 0% 100%', 'parted /dev/sda rm 1 rm 2', 'parted /dev/nvme0n1 mklabel gpt',
  'sfdisk /dev/sda < backup.txt', 'sfdisk --delete /dev/sda', 'sfdisk --delete --force /dev/sda',
  // fs: recursive chmod with a mode / chown of /
  'chmod -R 777 /', 'chmod -R a+rwx /', 'chmod -R u=rwx,g=rx,o=rx /', 'chmod 777 -R /', 'chmod a+rwx -R /',
  'chmod 777 --recursive /',
  'chown -R root:root /', 'chown --recursive user:group /', 'chown -Rv root:root /',
  // fs: recursive delete of /, system trees, or the whole cwd
  'rm -rf /', 'rm -r /', 'rm -rf *', 'rm -fr .', 'rm -rf ..', 'rm -Rf /', 'rm -FR /', 'rm   -rf   /', 'rm   -r   /',
  'sudo rm -rf /', 'sudo rm -r /', 'rm -rf --force /', 'rm -r --force /', 'rm -rfv /', 'rm -rf --verbose /',
  'rm -rf --preserve-root /', 'rm -r -f /', 'rm -f *',
  'rm -rf / node_modules package-lock.json .next', 'rm -rf node_modules / package-lock.json .next',
  'rm -rf node_modules package-lock.json / .next', 'rm -rf node_modules package-lock.json .next /',
  'rm -rf * node_modules', 'rm -rf node_modules * package-lock.json', 'rm -rf node_modules . package-lock.json',
  'rm -rf node_modules .. package-lock.json', 'rm -rf /usr/local',
  'rm -Rfv /', 'rm -frv /', 'rm -rvf /', 'rm -vrf /', 'rm -vRf /', 'rm -rv /', 'rm -Rv /', 'rm -vr /',
  'rm --recursive /', 'rm --recursive -f /', 'rm --recursive --force /', 'rm -f --recursive /', 'rm -r -f -v /',
  'rm / -rf', 'sudo rm -rfv /', 'sudo rm --recursive /', 'rm --force --recursive /', 'rm -rf ./*',
  // fs: replacing /dev/null as root
  'sudo mv Cargo.toml /dev/null', 'sudo   mv   Cargo.toml   /dev/null',
  // aws
  'aws cloudformation delete-stack --stack-name mystack', 'aws   cloudformation   delete-stack   --stack-name mystack',
  'aws ec2 terminate-instances --instance-ids i-123', 'aws   ec2   terminate-instances   --instance-ids i-123',
  'aws eks delete-cluster --name mycluster', 'aws   eks   delete-cluster   --name mycluster',
  'aws iam delete-user --user-name testuser', 'aws iam delete-role --role-name myrole', 'aws iam delete-policy --policy-arn arn:test',
  'aws iam delete-group --group-name mygroup',
  'aws lambda delete-function --function-name myfunc', 'aws   lambda   delete-function   --function-name myfunc',
  'aws rds delete-db-instance --db-instance-identifier mydb', 'aws   rds   delete-db-instance   --db-instance-identifier mydb',
  'aws route53 delete-hosted-zone --id Z123', 'aws   route53   delete-hosted-zone   --id Z123',
  'aws s3 rm s3://mybucket/path --recursive', 'aws   s3   rm   s3://mybucket/path   --recursive',
  'aws s3 rm --recursive s3://mybucket/path', 'aws --profile prod s3 rm s3://mybucket/ --recursive',
  'aws --region us-east-1 s3 rm s3://mybucket/ --recursive', "aws s3 rm s3://mybucket/ --include '*.log' --recursive",
  'aws s3 rm s3://mybucket/ --recursive --quiet',
  'aws dynamodb delete-table --table-name mytable', 'aws  dynamodb  delete-table  --table-name mytable',
  'aws sqs delete-queue --queue-url https://sqs.us-east-1.amazonaws.com/123456789012/myqueue',
  'aws  sqs  delete-queue  --queue-url https://example.com',
  'aws sns delete-topic --topic-arn arn:aws:sns:us-east-1:123456789012:mytopic', 'aws  sns  delete-topic  --topic-arn test',
  'aws ecr delete-repository --repository-name myrepo', 'aws ecr delete-repository --repository-name myrepo --force',
  'aws secretsmanager delete-secret --secret-id mysecret', 'aws  secretsmanager  delete-secret  --secret-id mysecret',
  'aws elasticache delete-cache-cluster --cache-cluster-id mycluster', 'aws  elasticache  delete-cache-cluster  --cache-cluster-id test',
  'aws logs delete-log-group --log-group-name /aws/lambda/myfunc', 'aws  logs  delete-log-group  --log-group-name test',
  'aws ecs delete-service --cluster mycluster --service myservice', 'aws ecs delete-cluster --cluster mycluster',
  'aws  ecs  delete-service  --cluster test --service test', 'aws --profile prod ec2 terminate-instances --instance-ids i-123',
  // azure
  'az ad app delete --id 123', 'az ad sp delete --id 456', 'az aks delete --name mycluster',
  'az  aks  delete --name prod-cluster --resource-group rg', 'az keyvault delete --name myvault', 'az  keyvault  delete --name prod-vault',
  'az group delete --name mygroup', 'az  group  delete --name prod-group --yes', 'az sql server delete --name mysrv',
  'az  sql  server  delete --name prod-sql --resource-group rg', 'az storage account delete --name myaccount',
  'az storage container delete --name mycontainer', 'az vm delete --name myvm --resource-group rg', 'az  vm  delete --name prod-vm --yes',
  'az functionapp delete --name myfunc --resource-group myrg', 'az  functionapp  delete  --name myfunc --resource-group myrg',
  'az webapp delete --name myapp --resource-group myrg', 'az  webapp  delete  --name myapp --resource-group myrg',
  'az cosmosdb delete --name myaccount --resource-group myrg', 'az  cosmosdb  delete  --name myaccount --resource-group myrg',
  // docker
  'docker rm -f $(docker ps -aq)', 'docker rm --force $(docker ps -aq)', 'docker  rm  -f  $(docker  ps -q)',
  'docker rm -f `docker ps -aq`',
  'docker run --privileged nginx', 'docker run -it --privileged ubuntu bash', 'docker run --name mycontainer --privileged nginx',
  'docker  run  --privileged  nginx', 'docker run --privileged=true nginx', 'docker run --security-opt seccomp=unconfined --privileged nginx',
  // flyio (named resource)
  'fly apps destroy my-app', 'flyctl apps destroy my-app', 'flyctl apps destroy my-app --yes', 'sudo fly apps destroy my-app',
  'fly volumes destroy vol_abc123', 'fly volume destroy vol_abc123', 'flyctl volumes destroy vol_abc123',
  'flyctl volume destroy vol_abc123', 'sudo fly volume destroy vol_123',
  'fly postgres destroy my-pg-cluster', 'flyctl postgres destroy my-pg-cluster', 'sudo flyctl postgres destroy my-db',
  // gcp
  'gcloud container clusters delete mycluster', 'gcloud  container  clusters  delete  prod-cluster --zone us-east1-b',
  'gcloud compute instances delete myvm', 'gcloud  compute  instances  delete  prod-vm --zone us-central1-a',
  'gcloud projects delete myproject', 'gcloud  projects  delete  my-other-project',
  'gcloud iam service-accounts delete sa@proj.iam', 'gcloud  iam  service-accounts  delete  deploy@proj.iam.gserviceaccount.com',
  'gcloud sql instances delete mydb', 'gcloud  sql  instances  delete  prod-db',
  'gsutil rm -r gs://mybucket/path', 'gsutil  rm  -r  gs://prod-bucket/data/', 'gsutil -m rm -r gs://mybucket/',
  'gsutil rm gs://mybucket/ -r',
  'gcloud functions delete my-function', 'gcloud  functions  delete  my-function --region us-central1',
  'gcloud run services delete my-service', 'gcloud  run  services  delete  my-service --region us-central1',
  'gcloud pubsub topics delete my-topic', 'gcloud  pubsub  topics  delete  my-topic',
  'gcloud secrets delete my-secret', 'gcloud  secrets  delete  my-secret --project myproject',
  // github
  'gh repo delete', 'gh repo delete myorg/myrepo', 'gh repo delete --yes', 'gh repo delete myorg/myrepo --yes', 'gh  repo  delete',
  'gh repo edit --visibility public', "gh repo edit --description 'new desc' --visibility public",
  // heroku
  'heroku apps:destroy', 'heroku   apps:destroy',
  // kubernetes / helm
  'kubectl --context prod delete ns staging', 'k delete ns production', 'kubectl -n default delete ns staging',
  'kubectl delete all --all -n default', 'kubectl delete deployments --all -n production', 'k delete services --all',
  'helm uninstall my-release', 'helm delete my-release', 'helm uninstall my-release --namespace prod',
  // databases, sent to a server
  "mongosh 'mongodb://localhost/test' --eval 'db.dropDatabase()'",
  "mysql -u root -p -e 'DROP DATABASE test'", "mysql --execute 'DROP TABLE users'", "mysql -h localhost -e 'DROP DATABASE test'",
  "psql -U postgres -c 'DROP TABLE users'", "psql --command 'DROP DATABASE test'", "psql -h localhost -c 'DROP TABLE users'",
  'redis-cli FLUSHALL', 'redis-cli flushall', 'redis-cli  FLUSHALL', 'redis-cli FLUSHDB', 'redis-cli flushdb', 'redis-cli  FLUSHDB',
  'redis-cli -h 10.0.0.1 FLUSHALL', 'redis-cli -n 0 FLUSHALL', 'redis-cli -p 6380 FLUSHALL', 'redis-cli -h localhost FLUSHDB',
  'redis-cli -p 6380 FLUSHDB',
  // npm registry: unpublish of a version or with --force
  'npm unpublish my-package@1.0.0', 'npm unpublish --force', 'yarn npm unpublish my-package --force',
  'pnpm unpublish my-package@1.0.0 --force',
  // terraform
  'terraform destroy -auto-approve', 'terraform  destroy  -auto-approve',
  // vercel (named resource)
  'vercel remove my-project', 'vercel rm my-project --yes', 'vercel  remove  my-project', 'sudo vercel remove my-project',
  'vercel rm --yes my-project', 'vercel project remove my-project', 'vercel project rm my-project', 'sudo vercel project rm my-project',
  'vercel domains rm example.com', 'vercel domain rm example.com', 'vercel domain remove example.com',
  'vercel  domains  rm  example.com', 'sudo vercel domain rm example.com',
];
const CORE_SAFE = [
  // fs
  'blockdev --report', 'fdisk -l', 'parted -l', 'sfdisk -l', 'cryptsetup -v status my_encrypted',
  "find . -name 'my-delete-script' -print", 'which cargo-tauri 2>/dev/null', 'echo test >/dev/null',
  'command -v foo &>/dev/null',
  // cloud reads
  'az ad app list', 'az aks show --name mycluster', 'az keyvault show --name myvault', 'az group show --name mygroup',
  'az sql server show --name mysrv', 'az storage account show --name myaccount', 'az vm show --name myvm', 'az functionapp list',
  'az webapp list', 'az cosmosdb list',
  'gcloud container clusters describe mycluster', 'gcloud compute instances list', 'gcloud projects list',
  'gcloud iam service-accounts list', 'gcloud sql instances describe mydb', 'gsutil ls gs://mybucket',
  'gsutil cat gs://mybucket/file.txt', 'gcloud functions list', 'gcloud run services list', 'gcloud pubsub topics list',
  'gcloud secrets list',
  'fly apps list', 'fly secrets list', 'fly volumes list', 'fly postgres list',
  'netlify sites:list', 'netlify env:list', 'vercel list', 'vercel project list', 'vercel env ls', 'vercel domains ls',
  'terraform state list', 'terraform state show aws_instance.foo',
  // docker / kubernetes
  'docker network ls', 'docker volume inspect myvol', 'docker volume ls', 'docker container ls',
  'helm list', 'helm history my-release', 'kubectl get nodes', 'kubectl get pods --all-namespaces',
  // github
  'gh repo list', 'gh repo view', 'gh release list', 'gh release view v1.0.0', 'gh secret list', 'gh variable list',
  // databases / registries
  "mysql -e 'SELECT * FROM dropdown'", "psql -c 'SELECT * FROM dropdown'", 'redis-cli GET mykey',
  'npm list', 'npm info my-package', 'yarn npm info my-package',
];

// family: from the test file, with section and per-command overrides.
const FILE_FAMILY = { aws: 'cloud', azure: 'cloud', gcp: 'cloud', flyio: 'cloud', heroku: 'cloud', netlify: 'cloud',
  vercel: 'cloud', terraform: 'cloud', kubernetes: 'cloud', database: 'database', mongodb: 'database', mysql: 'database',
  psql: 'database', redis: 'database', docker: 'container', github: 'git', npm: 'other', fs: 'destructive' };
const SYSTEM_SECTIONS = ['fs:blockdev_disk_modify', 'fs:encryption_operations', 'fs:fdisk_disk_modify', 'fs:filesystem_backup',
  'fs:gdisk_disk_modify', 'fs:mount_operations', 'fs:partprobe_disk_update', 'fs:sfdisk_disk_modify'];
const FAMILY = {
  'parted -l': 'system', 'fdisk -l': 'system', 'cryptsetup -v status my_encrypted': 'system',
  "find . -name 'my-delete-script' -print": 'other', 'which cargo-tauri 2>/dev/null': 'other', 'echo test >/dev/null': 'other',
  'command -v foo &>/dev/null': 'other', 'npx tauri --version 2>/dev/null': 'other',
  'sudo mv Cargo.toml /dev/null': 'system', 'sudo   mv   Cargo.toml   /dev/null': 'system',
  'docker run --privileged nginx': 'privilege', 'docker run -it --privileged ubuntu bash': 'privilege',
  'docker run --name mycontainer --privileged nginx': 'privilege', 'docker  run  --privileged  nginx': 'privilege',
  'docker run --privileged=true nginx': 'privilege', 'docker run --security-opt seccomp=unconfined --privileged nginx': 'privilege',
  'cryptsetup luksFormat /dev/sda1': 'destructive', 'cryptsetup  luksFormat    /dev/sda1': 'destructive',
  'cryptsetup luksFormat /dev/nvme0n1p1': 'destructive',
  'sfdisk /dev/sda < backup.txt': 'destructive', 'sfdisk --delete /dev/sda': 'destructive', 'sfdisk --delete --force /dev/sda': 'destructive',
  'fdisk /dev/nvme0n1': 'system', 'gdisk /dev/nvme0n1': 'system', 'mount /dev/nvme0n1p1 /mnt': 'system',
  'blockdev --setro /dev/nvme0n1': 'system',
};

const CORE = new Map();
for (const [kind, list] of [['dangerous', CORE_DANGEROUS], ['safe', CORE_SAFE]]) {
  for (const c of list) {
    if (CORE.has(c)) throw new Error('duplicate table key ' + JSON.stringify(c));
    CORE.set(c, kind);
  }
}
for (const k of Object.keys(FAMILY)) if (!['destructive', 'secrets', 'privilege', 'network', 'system', 'git', 'container',
  'cloud', 'database', 'supervision', 'other'].includes(FAMILY[k])) throw new Error('bad family ' + k);

function unquote(s) {
  s = s.trim();
  if (s.startsWith('"') && s.endsWith('"')) return JSON.parse(s);
  if (s.startsWith("'") && s.endsWith("'")) return s.slice(1, -1).replace(/''/g, "'");
  throw new Error('unexpected scalar ' + s);
}
const parseIds = body => (body.trim() ? body.split(',').map(unquote) : []);

const prev = new Set(readFileSync(prevPath, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l).input.command));
const out = [];
const seen = new Set();
const used = new Set();
const stats = { cases: 0, inPrevious: 0, duplicates: 0 };
for (const [fi, file] of FILES.entries()) {
  const name = NAMES[fi];
  const text = execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${file}`], { encoding: 'utf8' });
  const lines = text.split('\n');
  let section = name;
  let cur = null;
  let pendingIds = false;
  const flush = () => {
    if (!cur) return;
    if (cur.ids === undefined) throw new Error('no expect_ids for ' + cur.cmd);
    const cmd = cur.cmd;
    stats.cases++;
    if (prev.has(cmd)) { stats.inPrevious++; cur = null; return; }
    if (seen.has(cmd)) { stats.duplicates++; cur = null; return; }
    seen.add(cmd);
    const expected = cur.ids.length ? 'block' : 'allow';
    let tag = 'policy';
    if (CORE.has(cmd)) {
      used.add(cmd);
      tag = 'core';
      if ((expected === 'allow') !== (CORE.get(cmd) === 'safe')) throw new Error('core table disagrees with expected for ' + cmd);
    }
    const family = FAMILY[cmd] || (SYSTEM_SECTIONS.includes(cur.section) ? 'system' : FILE_FAMILY[name]);
    if (!family) throw new Error('no family for ' + cmd);
    out.push({ source: `${REPO} ${file}:${cur.line}`, category: `shellfirm:${cur.section}`, expected,
      tool: 'Bash', input: { command: cmd }, tag, family });
    cur = null;
  };
  lines.forEach((ln, i) => {
    let m;
    if ((m = ln.match(/^# -- (.*) --\s*$/))) { flush(); section = m[1]; return; }
    if ((m = ln.match(/^- test: (.*)$/))) { flush(); cur = { cmd: unquote(m[1]), line: i + 1, section }; return; }
    if ((m = ln.match(/^\s+expect_ids: \[(.*)\]\s*$/))) { cur.ids = parseIds(m[1]); return; }
    if (/^\s+expect_ids:\s*$/.test(ln)) { pendingIds = true; return; }
    if (pendingIds) {
      if (!(m = ln.match(/^\s+\[(.*)\]\s*$/))) throw new Error(`${file}:${i + 1}: unexpected expect_ids continuation`);
      cur.ids = parseIds(m[1]); pendingIds = false; return;
    }
    if (/^- /.test(ln) || (/^\s+\S/.test(ln) && !/^\s+description: /.test(ln))) throw new Error(`${file}:${i + 1}: unexpected line`);
  });
  flush();
}
for (const k of CORE.keys()) if (!used.has(k)) throw new Error('table entry not in suite: ' + JSON.stringify(k));
if (process.env.VERBOSE) console.error(JSON.stringify({ ...stats, rows: out.length }));
process.stdout.write(out.map(o => JSON.stringify(o)).join('\n') + '\n');
