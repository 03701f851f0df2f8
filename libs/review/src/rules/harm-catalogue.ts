import type { VerdictKind } from '@warden/contracts';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { type ShellSegment } from '../parsing/shell-command.js';
import { windowsCommands, windowsWords, type WindowsCommand } from '../parsing/windows-commands.js';
import { DerivedValue } from '../derived-value.js';
import { copierOperands } from '../parsing/command-facts.js';
import { codeWithoutComments } from '../parsing/inline-code.js';
import { requestsItsOwnService, requestsOnlyThisMachine } from './network-destination.js';
import { secretFileIn } from './secret-files.js';
import { CREDENTIAL_DIRECTORY_TEXT, CREDENTIAL_STORE_TEXT } from '@warden/actions';

/**
 * The kinds of harm (apps/reviewer/README.md, "Kinds of harm") and, for each, the programs and options that
 * do it on Linux, macOS and Windows (PowerShell and cmd). One mechanism: a simple command is read as its
 * program (base name, lower case, without `.exe`) and the text of its arguments; the entries of that program
 * are tried on the arguments. Each kind is one rule (harm-rules.ts) with its default verdict; an entry may
 * say a stronger or weaker one.
 */
export type HarmKind =
  | 'data_destruction'
  | 'safety_control'
  | 'secret_leak'
  | 'privilege_escalation'
  | 'network_exposure'
  | 'shared_infrastructure'
  | 'hidden_code';

interface HarmEntry {
  kind: HarmKind;
  /** Programs, lower case, without `.exe`. */
  programs: readonly string[];
  /** Tried on the arguments joined by spaces (case-insensitive); absent: the program itself is the harm. */
  args?: RegExp;
  /** Arguments that make it harmless (a listing, a dry run, help). */
  unless?: RegExp;
  /** What it does, for the reason: "erases a disk". */
  what: string;
  verdict?: VerdictKind;
  /**
   * Harm only when an argument names a credential file (a channel: an archiver, a copy, a socket); `whole`:
   * also a home's directory that holds one (`tar czf x.tgz ~/.codex` takes the login along; a read of it is nothing).
   */
  credential?: boolean | 'whole';
}

/** A channel secrets can leave by: harm when it carries a credential file. */
const channel = (programs: string, args: RegExp | undefined, what: string, verdict?: VerdictKind, unless?: RegExp): HarmEntry => ({ ...e('secret_leak', programs, args, what, verdict, unless), credential: true });
/** A channel that takes files away whole: a directory that holds a login goes with them. */
const carrier = (programs: string, args: RegExp | undefined, what: string, verdict?: VerdictKind, unless?: RegExp): HarmEntry => ({ ...channel(programs, args, what, verdict, unless), credential: 'whole' });
const e = (kind: HarmKind, programs: string | readonly string[], args: RegExp | undefined, what: string, verdict?: VerdictKind, unless?: RegExp): HarmEntry => ({
  kind,
  programs: typeof programs === 'string' ? programs.split(' ') : programs,
  ...(args ? { args } : {}),
  what,
  ...(verdict ? { verdict } : {}),
  ...(unless ? { unless } : {}),
});

/** A shell or an interpreter as the program socat runs for each peer (`EXEC:/bin/bash`, `SYSTEM:"python3 -i"`); `EXEC:cat` is an echo server. */
const SERVED_SHELL = /(?:exec|system):["']?(?:[^\s,"':!]*\/)?(?:(?:ba|z|da|k|c|tc|fi|a)?sh|python[\d.]*|perl|ruby|irb|node|php|lua|pwsh|powershell|cmd)(?:\.exe)?\b/i;

const HELP = /(?:^|\s)(?:-h|--help|\/\?|-\?|help|--version|-v)(?:\s|$)/i;
/** A credential file or directory named in an argument (POSIX or Windows spelling). */
export const CREDENTIAL_ARG = new RegExp(`${/(?:^|[\s"'=:@/\\])(?:~|\$home|\$\{home\}|\$env:userprofile|%userprofile%|\/home\/[^/\s]+|\/users\/[^/\s]+|\/root|c:[\\/]+users[\\/]+[^\\/\s]+)?[\\/]*\.(?:ssh|aws|gnupg|kube|docker|azure|config[\\/]+gcloud)(?:[\\/]|\s|$|["'])|id_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)|\.aws[\\/]+credentials|\.git-credentials|\.netrc\b|\.pgpass\b|\.npmrc\b|\.pypirc\b|(?:^|[\s/\\"'@=])\.env(?:\.(?!example|sample|template)\w+)?(?:\s|$|["',])|\.kdbx\b|(?:^|[\s"'=:@/\\])[\w.-]+\.key(?:\s|$|["'])|wallet\.dat|keychain-db|login\.keychain|\.p12\b|\.pfx\b|credentials\.json|service[-_]account[\w-]*\.json/.source}|${CREDENTIAL_STORE_TEXT.source}`, 'i');
/** A credential file, or a home's directory that holds one (what an archive, a copy or a transfer takes whole). */
const CREDENTIAL_TAKEN = new RegExp(`${CREDENTIAL_ARG.source}|${CREDENTIAL_DIRECTORY_TEXT.source}`, 'i');
/** Key material searched for across the machine. */
const KEY_MATERIAL = /id_(?:rsa|dsa|ecdsa|ed25519)|\*?\.pem\b|\*?\.key\b|\*?\.p12\b|\*?\.pfx\b|private[ _]key|begin [a-z ]*private|akia|aws_secret|secret_access_key|\.kdbx|wallet\.dat|credentials|\.git-credentials|\.netrc|\.env\b|api[_-]?key|password|token/i;
/** Roots a bulk search starts from: the whole machine, a home (`~`, `/home/ana`, `/Users/ana`) or all homes. */
const BROAD_ROOT = /(?:^|\s)(?:\/|~\/?|\$home\/?|\/home(?:\/[^/\s]+)?\/?|\/users(?:\/[^/\s]+)?\/?|\/root\/?|c:[\\/]*|\$env:userprofile[\\/]?|%userprofile%[\\/]?|\/etc\/?|\/var\/?)(?:\s|$)/i;
/** A script file of this machine read whole for Invoke-Expression: it runs as `pwsh -File` would run it, readable where it is. */
const LOCAL_SCRIPT_READ = /^(?:get-content|gc|cat|type)\s+(?![^|]*(?:https?:|ftp:|\\\\|\$\(|frombase64))[^|]*\.ps1\b/i;
/** A whole disk, partition or the machine's memory as a device (Linux, macOS, Windows). */
const RAW_DEVICE = /(?:^|[\s"'=])(?:\/dev\/(?:sd[a-z]|nvme\d|hd[a-z]|vd[a-z]|xvd[a-z]|r?disk\d|mmcblk\d|mapper\/|dm-\d|md\d|loop\d|mem\b|kmem\b|port\b)|\/proc\/kcore\b|\\\\\.\\physicaldrive\d)/i;
const SYSTEM_PROCESSES = /(?:^|\s|,)(?:explorer|lsass|csrss|winlogon|wininit|services|smss|svchost|dwm|msmpeng|launchd|windowserver|loginwindow|systemd|init|kernel_task)(?:\.exe)?(?:\s|,|$)/i;
/** What deleting registry keys is called, by `reg delete` and by PowerShell's registry drives. */
const REGISTRY_DELETION = 'deletes registry keys';
/** A registry key as PowerShell names it: `HKLM:\Software`, `Registry::HKEY_LOCAL_MACHINE\…`. */
const HIVE = /(?:registry::)?(?:hk(?:lm|cu|cr|u|cc)|hkey_(?:local_machine|current_user|classes_root|users|current_config))(?::|[\\/])/.source;
/** An operand that is one, and one named in a command's arguments. */
const REGISTRY_PATH = new RegExp(`^["']?${HIVE}`, 'i');
const REGISTRY_KEY = new RegExp(`(?:^|\\s|["'])${HIVE}`, 'i');
/** The system, a drive and the homes of Windows, as one whole path (a user's name may have spaces in it). */
const PROTECTED_WINDOWS = /^(?:[a-z]:[\\/]*(?:windows|users|program files[^\\/]*|programdata)?[\\/]*|\$env:(?:userprofile|systemroot|windir|programfiles|homedrive)[\\/]*|%(?:userprofile|systemroot|windir|programfiles|homedrive)%[\\/]*|~[\\/]*|[a-z]:[\\/]*users[\\/]+[^\\/"']+[\\/]*)$/i;
const SECURITY_SERVICES = /(?:firewalld|ufw|nftables|iptables|ip6tables|netfilter-persistent|apparmor|auditd|selinux|fail2ban|clamav-daemon|clamd|falcon-sensor|crowdstrike|osqueryd|wazuh-agent|falco|rsyslog|syslog-ng|systemd-journald|auditbeat|sentinelone|windefend|mpssvc|wscsvc|sense|eventlog|bfe|securityhealthservice|wdnissvc|sysmon64|sysmon)(?:\.service)?/i;
/**
 * Security, audit and logging agents by process name (EDRs, intrusion detection, antivirus, the audit and log
 * daemons): killing or pausing one switches the machine's watch off.
 */
const SECURITY_PROCESS = String.raw`(?:osqueryd?|falco|falcon-sensor|falcond|crowdstrike|cb-?sensor|cbagentd|cbdaemon|sentinelagent|sentinelone|sentineld|wazuh-agentd?|ossec\w*|auditd|aide|tripwire|rkhunter|chkrootkit|samhain|rsyslogd?|syslog-?ng|systemd-journald|journald|clamd|freshclam|fail2ban-server|auditbeat|elastic-agent|msmpeng|mssense|nissrv|sysmon(?:64)?|xprotect\w*|santad?)`;
/** A kill naming one (`pkill -9 falco`, `kill -9 $(pgrep osqueryd)`, `taskkill /im MsMpEng.exe`), by any signal that stops or pauses it. */
const SECURITY_PROCESS_KILL = new RegExp(String.raw`(?:^|[\s(/'"=])${SECURITY_PROCESS}(?:\.exe)?(?=$|[\s)'",])`, 'i');
/** Signals that ask a daemon to reload or reopen its logs, or only test that it runs, and listings: no harm. */
const RELOAD_SIGNAL = /(?:^|\s)(?:-(?:HUP|SIGHUP|USR1|SIGUSR1|USR2|SIGUSR2|1|10|12|0|l|L)|-s\s+(?:HUP|USR1|USR2|0)|--signal[=\s]+(?:HUP|USR1|USR2|0))(?:\s|$)/i;
/** Another process's memory (`/proc/1234/mem`, `$pid/mem`): its keys and passwords, and a way into it when written. */
const PROCESS_MEMORY = /(?:^|[\s"'=])(?:\/proc\/(?:\d+|\$\{?\w+\}?|\*|\[0-9\]\*)|\$\{?\w+\}?)\/mem(?![\w.\/-])/;

const HARM_CATALOGUE: readonly HarmEntry[] = [
  // ── destroys data ──────────────────────────────────────────────────────────────────────────────
  e('data_destruction', 'diskutil', /\b(?:erasedisk|erasevolume|zerodisk|randomdisk|secureerase|partitiondisk|reformat|deletevolume|apfs\s+(?:deletecontainer|deletevolume|erasevolume))\b/i, 'erases a disk or volume', 'block'),
  e('data_destruction', 'tmutil', /\b(?:delete|deletelocalsnapshots|thinlocalsnapshots|disable|removeexclusion)\b/i, "deletes or switches off the machine's backups"),
  e('data_destruction', 'dscl', /\s-(?:delete|destroy)\s/i, 'deletes a user account or directory record'),
  e('data_destruction', 'sysadminctl', /-deleteuser/i, 'deletes a user account'),
  e('data_destruction', 'userdel deluser', undefined, 'deletes a user account', undefined, HELP),
  e('data_destruction', 'remove-localuser remove-aduser', undefined, 'deletes a user account'),
  e('data_destruction', 'net', /^user\s+\S+.*\/del(?:ete)?\b/i, 'deletes a user account'),
  e('data_destruction', 'format', /^\s*[a-z]:/i, 'formats a drive', 'block'),
  e('data_destruction', 'format-volume clear-disk remove-partition initialize-disk remove-physicaldisk', undefined, 'erases a disk, partition or volume', 'block'),
  e('data_destruction', 'diskpart', undefined, 'edits disks and partitions (clean, delete, format)', undefined, HELP),
  e('data_destruction', 'fdisk sfdisk gdisk cfdisk parted', /\/dev\//i, "rewrites a disk's partition table", undefined, /(?:^|\s)(?:-l|--list|-s|--show|print|--no-act|-n|--dump|-d|--json|-J)(?:\s|$)/i),
  e('data_destruction', 'sgdisk', /--zap|-z\b|-o\b|--clear|-d\b|--delete/i, "destroys a disk's partition table", 'block'),
  e('data_destruction', 'cryptsetup', /\b(?:luksformat|erase|luksremovekey|lukskillslot)\b/i, 'destroys an encrypted volume or its keys', 'block'),
  e('data_destruction', 'dd', /\bif=\/dev\/(?:sd|nvme|hd|vd|xvd|disk|rdisk|mmcblk)/i, 'copies a whole disk, with every file and secret on it'),
  e('data_destruction', 'cipher', /\/w\b/i, 'wipes free space for good', 'block'),
  e('data_destruction', 'vssadmin', /\b(?:delete\s+shadows|resize\s+shadowstorage)\b/i, "deletes Windows' shadow copies (its restore points)", 'block'),
  e('data_destruction', 'wmic', /shadowcopy\s+delete/i, "deletes Windows' shadow copies (its restore points)", 'block'),
  e('data_destruction', 'wbadmin', /\bdelete\b/i, "deletes Windows' backups", 'block'),
  e('data_destruction', 'remove-item ri rd rmdir del erase', /(?=.*(?:^|\s)(?:-r|-recurse|\/s)\b)/i, 'deletes a directory tree of the system or a home directory', 'block'),
  e('data_destruction', 'reg', /^delete\s/i, REGISTRY_DELETION),
  e('data_destruction', 'lvremove vgremove pvremove lvreduce', /(?:^|\s)(?!-)[^\s$"']/, 'deletes logical volumes with their data', undefined, /(?:^|\s)(?:-h|--help|--longhelp|-t|--test)(?:\s|=|$)/),
  e('data_destruction', 'lvm', /^\s*(?:lvremove|vgremove|pvremove|lvreduce)\b/i, 'deletes logical volumes with their data'),
  e('data_destruction', 'zfs zpool', /^\s*(?:destroy|labelclear)\b|^\s*rollback\s+-r/i, 'destroys ZFS datasets, snapshots or pools', 'block'),
  e('data_destruction', 'btrfs', /\bsubvolume\s+delete\b/i, 'deletes a btrfs subvolume'),
  e('data_destruction', 'mdadm', /--zero-superblock|--remove|--fail/i, 'takes a disk out of a RAID array'),
  e('data_destruction', 'chown chmod chgrp', /(?=.*(?:^|\s)(?:-[a-zA-Z]*R[a-zA-Z]*|--recursive)(?:\s|$))(?=.*(?:^|\s)\/\*?(?:\s|$))/, 'changes the owner or permissions of every file of the system (it stops working)', 'block', /(?:^|\s)(?:--help|--version)(?:\s|$)/),
  e('data_destruction', 'dd', /\bof=\/dev\/(?:mem|kmem|port|sd[a-z]|nvme\d|hd[a-z]|vd[a-z]|xvd[a-z]|disk\d|rdisk\d|mmcblk\d)/i, "overwrites a disk or the machine's memory", 'block'),
  e('data_destruction', 'gitlab-rails rails', /^\s*(?:r|runner)\b.*(?:^|[^\w.)])[A-Z]\w*(?:::[A-Z]\w*)*(?:\.(?:all|unscoped))?\.(?:destroy_all|delete_all)\b/, 'deletes every record of a model from the database'),
  e('data_destruction', 'security', /^\s*delete-(?:keychain|certificate|identity|generic-password|internet-password)\b/i, 'deletes keychains or stored credentials'),
  e('data_destruction', 'gpg gpg2', /--delete-secret-(?:keys?|and-public-keys?)\b/i, 'deletes private keys from the keyring (what they sign or decrypt is lost with them)'),
  e('data_destruction', 'ykman', /^\s*(?:fido|piv|oath|openpgp|otp|hsmauth)\s+reset\b|^\s*otp\s+delete\b|^\s*(?:fido\s+credentials|oath\s+accounts)\s+delete\b/i, 'resets a security key or deletes logins on it (they are gone for good)'),
  e('data_destruction', 'fido2-token', /(?:^|\s)-[RD]\b/, 'resets a security key or deletes a login on it (they are gone for good)'),
  e('data_destruction', 'tpm2_clear clear-tpm', undefined, "clears the machine's TPM (the keys in it, the disk encryption's among them, are gone)", undefined, HELP),
  e('data_destruction', 'initialize-tpm', /-allowclear\b/i, "clears the machine's TPM (the keys in it, the disk encryption's among them, are gone)"),
  e('data_destruction', 'drop', /^\s*(?:database|schema|table|keyspace|index)\b/i, 'drops a database object with its data'),
  e('data_destruction', 'truncate', /^\s*table\b|^\s*(?!-)\w+;?\s*$/i, 'empties a table', undefined, /(?:^|\s)-/),
  e('data_destruction', 'delete', /^\s*from\s+(?!.*\bwhere\b)/i, 'deletes every row of a table'),
  e('data_destruction', 'remove-itemproperty rp remove-item ri del erase rd rmdir', REGISTRY_KEY, REGISTRY_DELETION),
  e('data_destruction', 'stop-process spps taskkill killall pkill', SYSTEM_PROCESSES, 'kills a process the system needs (the machine stops or logs the user out)', 'block', /^\s*-(?:l|L|0)\b/),
  e('data_destruction', 'stop-process spps', /(?=.*-force)(?=.*-name)/i, 'force-stops processes by name (their unsaved work is lost)'),
  // `Get-Process -Name python | Stop-Process -Force`: what comes down the pipe is every process of a name or a filter (its arguments as argumentsOf reads them).
  e('data_destruction', 'stop-process spps', /^(?:get-process|gps|where-object|where|\?)\b(?![^|]*\s-id\b)[^|]*\|.*-force/i, 'force-stops every process piped to it by name or filter (their unsaved work is lost)'),
  e('data_destruction', 'taskkill', /(?=.*\/f\b)(?=.*\/im\b)/i, 'force-kills processes by name (their unsaved work is lost)'),
  // ── disables a safety control ──────────────────────────────────────────────────────────────────
  e('safety_control', 'kill pkill killall skill taskkill stop-process spps', SECURITY_PROCESS_KILL, 'kills or pauses a security, audit or logging agent (what happens next is no longer watched or recorded)', 'block', RELOAD_SIGNAL),
  e('safety_control', 'iptables ip6tables', /(?:^|\s)(?:-F|--flush|-X|--delete-chain)(?:\s|$)|(?:-P|--policy)\s+\w+\s+ACCEPT/, 'flushes or opens the firewall'),
  e('safety_control', 'nft', /\bflush\s+ruleset\b|\bdelete\s+table\b/i, 'flushes the firewall'),
  e('safety_control', 'ufw', /^\s*(?:--force\s+)?(?:disable|reset)\b/i, 'switches the firewall off'),
  e('safety_control', 'firewall-cmd', /--panic-off|--set-default-zone[= ]trusted|--add-port|--add-service/i, 'opens the firewall'),
  e('safety_control', 'systemctl service', new RegExp(String.raw`(?:\b(?:stop|disable|mask|kill)\b.*\b${SECURITY_SERVICES.source}|\b${SECURITY_SERVICES.source}\s+stop\b)`, 'i'), 'stops a security service (firewall, MAC, audit, antivirus)'),
  e('safety_control', 'setenforce', /^\s*(?:0|permissive)\b/i, 'switches SELinux enforcement off'),
  e('safety_control', 'aa-teardown aa-disable aa-complain', undefined, 'switches AppArmor protection off'),
  e('safety_control', 'auditctl', /(?:^|\s)(?:-D|--delete-all|-e\s+0)(?:\s|$)/, 'switches auditing off or deletes its rules'),
  e('safety_control', 'sysctl', /kernel\.(?:randomize_va_space=0|yama\.ptrace_scope=0|kptr_restrict=0|dmesg_restrict=0)/i, 'weakens kernel protections'),
  e('safety_control', 'csrutil', /\b(?:disable|authenticated-root\s+disable|clear)\b/i, 'switches System Integrity Protection off', 'block'),
  e('safety_control', 'spctl', /--master-disable|--global-disable|--disable(?:\s|$)/i, 'switches Gatekeeper off'),
  e('safety_control', 'socketfilterfw', /--setglobalstate\s+off|--setblockall\s+off/i, "switches macOS's firewall off"),
  e('safety_control', 'pfctl', /(?:^|\s)-d(?:\s|$)|-F\s+all/i, 'switches the packet filter off'),
  e('safety_control', 'defaults', /com\.apple\.alf.*globalstate\s+-int\s+0|com\.apple\.security.*(?:gk|gatekeeper)/i, "switches macOS's firewall or Gatekeeper off"),
  e('safety_control', 'launchctl', /\b(?:unload|bootout|disable|remove)\b.*(?:com\.apple\.(?:alf|security|xprotect|mrt|firewall|auditd)|firewall|xprotect)/i, 'stops a macOS security service'),
  e('safety_control', 'set-mppreference', /-disable\w+\s+(?:\$true|1|true)|-disable\w+(?:\s|$)(?!\s*\$false)|-exclusion\w+|-(?:mapsreporting|submitsamplesconsent)\s+(?:0|2|disabled|never)/i, 'switches Microsoft Defender off or excludes files from it'),
  e('safety_control', 'add-mppreference', /-exclusion\w+/i, 'excludes files or processes from Microsoft Defender'),
  e('safety_control', 'remove-mppreference', /-(?:attacksurface|controlledfolder)/i, "removes Microsoft Defender's protections"),
  e('safety_control', 'netsh', /advfirewall\s+set\s+\w+\s+state\s+off|firewall\s+set\s+opmode\s+(?:mode=)?disable|advfirewall\s+reset/i, "switches Windows' firewall off"),
  e('safety_control', 'set-netfirewallprofile', /-enabled\s+(?:false|0|\$false)/i, "switches Windows' firewall off"),
  e('safety_control', 'sc sc.exe', new RegExp(String.raw`\b(?:stop|delete|config)\s+["']?${SECURITY_SERVICES.source}`, 'i'), 'stops or disables a Windows security service'),
  e('safety_control', 'stop-service set-service', SECURITY_SERVICES, 'stops or disables a Windows security service'),
  e('safety_control', 'net', new RegExp(String.raw`^stop\s+["']?${SECURITY_SERVICES.source}`, 'i'), 'stops a Windows security service'),
  e('safety_control', 'bcdedit', /recoveryenabled\s+no|bootstatuspolicy\s+ignoreallfailures|testsigning\s+on|nointegritychecks\s+on|\/debug\s+on/i, "weakens Windows' boot protections"),
  e('safety_control', 'wevtutil', /^\s*(?:cl|clear-log)\b/i, "clears Windows' event logs"),
  e('safety_control', 'clear-eventlog remove-eventlog', undefined, "clears Windows' event logs"),
  e('safety_control', 'auditpol', /\/clear|\/remove/i, "removes Windows' audit policy"),
  // The default scope is the machine's; a process's own (`-Scope Process`) ends with it, a user's is the user's choice.
  e('safety_control', 'set-executionpolicy', /^(?!.*-scope\s+["']?(?:process|currentuser)\b).*\b(?:unrestricted|bypass)\b/i, 'lets every PowerShell script run unsigned', 'warn'),
  e('safety_control', 'fdesetup', /^\s*disable\b/i, "switches FileVault's disk encryption off"),
  e('safety_control', 'manage-bde disable-bitlocker', /-off\b|^\s*-mountpoint|^\s*["']?[a-z]:/i, "switches BitLocker's disk encryption off"),
  e('safety_control', 'pip pip3', /\bconfig\s+set\s+\S*trusted-host\b/i, "turns off the certificate check of a package index for every later install"),
  e('safety_control', 'gh', /^\s*workflow\s+disable\b|^\s*api\b(?=.*(?:-x|--method)\s*delete)(?=.*protection)/i, "switches off the repository's CI checks or branch protection"),
  e('safety_control', 'gh', /^\s*pr\s+merge\b.*\s--admin\b/i, "merges past the branch protection's required reviews and checks (--admin)", 'require_approval'),
  // A person's review is what branch protection stands for: dismissed or approved by the agent, it is no review. A
  // thread resolved by the author is common practice after a fix, so it is only said (the reviewer may not agree).
  e('safety_control', 'gh', /^\s*api\b.*\bdismissPullRequestReview\b|^\s*api\b.*\/reviews\/\d+\/dismissals\b|^\s*pr\s+review\b.*\s(?:--approve|-a)(?:\s|$)/i, "settles a reviewer's review itself (dismisses it, or approves the pull request in the user's name)", 'require_approval'),
  e('safety_control', 'gh', /^\s*api\b.*\b(?:resolveReviewThread|minimizeComment)\b/i, "resolves or hides a reviewer's comments itself", 'warn'),
  e('safety_control', 'npm', /^\s*profile\s+disable-2fa\b/i, 'switches two-factor authentication off'),
  e('safety_control', 'git', /^config\b.*\b(?:commit|tag|push)\.gpgsign\s+(?:false|0|no|off)\b/i, 'switches commit signing off'),
  e('safety_control', 'history', /(?:^|\s)-(?:c|d\s*\S+|w\s+\/dev\/null)(?:\s|$)/i, "clears the shell's history (what was run can no longer be seen)", 'require_approval'),
  e('safety_control', 'unset', /\bHISTFILE\b/, "switches the shell's history off", 'require_approval'),
  e('safety_control', 'export set', /\bHISTFILE=["']?\/dev\/null|\bHISTSIZE=["']?0\b|^\s*\+o\s+history\b/i, "switches the shell's history off", 'require_approval'),
  e('safety_control', 'truncate shred', /(?:^|\s)\/var\/log\//i, "empties or destroys the machine's logs", 'require_approval'),
  // -p prints an attribute (`-pl`, `-lp`: printed long); -d deletes and -c clears them all.
  e('safety_control', 'xattr', /com\.apple\.quarantine|(?:^|\s)-[a-z]*c[a-z]*(?:\s|$)/i, "removes macOS's quarantine mark, so Gatekeeper no longer checks the program", 'require_approval', /(?:^|\s)-[lrsvx]*p[lrsvx]*(?:\s|$)|(?:^|\s)-(?:l|h)(?:\s|$)/),
  e('safety_control', 'defaults', /com\.apple\.launchservices\b.*\blsquarantine\b.*\b(?:no|false|0)\b/i, "switches macOS's quarantine of downloads off"),
  e('safety_control', 'reg', /^\s*add\b.*windows defender.*\/v\s+["']?disable\w*["']?.*\/d\s+1\b/i, 'switches Microsoft Defender off by policy'),
  e('safety_control', 'set-itemproperty new-itemproperty', /windows defender.*-name\s+["']?disable\w*["']?.*-value\s+1\b/i, 'switches Microsoft Defender off by policy'),
  e('safety_control', 'git', /^config\b.*\bcredential\.helper\s+["']?store\b/i, 'keeps git passwords in clear text on disk (~/.git-credentials)', 'warn'),
  e('safety_control', 'git', /^config\b.*\bcore\.hookspath\s+(?:\/dev\/null|nul|["']{2}|\/tmp\S*)(?:\s|$)/i, "switches the repository's git hooks off"),
  // ── leaks secrets ──────────────────────────────────────────────────────────────────────────────
  // user:password, a token as the user name, or a variable that holds one: git keeps the URL in .git/config.
  e('secret_leak', 'git', /\b(?:remote\s+(?:add|set-url)|clone|submodule\s+add|config\b.*\bremote\.\S+\.(?:push)?url)\b.*\bhttps?:\/\/(?:[^\s/@:]+:[^\s/@]+|(?:gh[pousr]_|github_pat_|glpat-)[^\s/@]+|\$\{?\w+\}?)@/i, "writes a credential into the repository's git configuration in clear text (the remote's URL carries it; `git remote -v` and every error naming the remote print it)", 'require_approval'),
  carrier('tar zip 7z 7za rar gzip bzip2 xz zstd cpio compress-archive', CREDENTIAL_TAKEN, 'packs credential files into an archive', undefined, /(?:^|\s)(?:-t|--list|tf|tzf|tvf|-l)(?:\s|$)/i),
  carrier('aws', /\bs3\s+(?:cp|mv|sync)\b/i, 'copies credential files to cloud storage', 'block'),
  carrier('gsutil', /\b(?:cp|mv|rsync)\b/i, 'copies credential files to cloud storage', 'block'),
  carrier('gcloud', /\bstorage\s+(?:cp|mv|rsync)\b/i, 'copies credential files to cloud storage', 'block'),
  carrier('az', /\bstorage\s+(?:blob|file)\s+(?:upload|copy)/i, 'copies credential files to cloud storage', 'block'),
  carrier('azcopy rclone mc b2 s3cmd restic', /\b(?:copy|copyto|sync|move|cp|mv|put|upload|backup|upload-file)\b/i, 'copies credential files to cloud storage', 'block'),
  carrier('gh', /\bgist\s+(?:create|new|edit)\b/i, 'publishes credential files as a gist', 'block'),
  carrier('pastebinit wgetpaste gist', undefined, 'publishes credential files on a paste site', 'block', HELP),
  carrier('rsync scp sftp ftp lftp croc magic-wormhole wormhole transfer rclone', undefined, 'sends credential files to another machine', 'block'),
  channel('nc ncat netcat socat telnet openssl', undefined, 'sends credential files over a raw socket', 'block'),
  e('secret_leak', 'find locate mlocate fd rg grep egrep ag ack get-childitem gci dir', undefined, 'searches the whole machine or home for keys and credentials', 'require_approval'),
  channel('get-content gc type', CREDENTIAL_ARG, 'prints private keys or credentials', 'require_approval'),
  carrier('copy-item cpi copy xcopy robocopy move-item', CREDENTIAL_TAKEN, 'copies private keys or credentials out of their place', 'require_approval'),
  e('secret_leak', 'reg', /^\s*(?:save|export)\s+["']?(?:hklm|hkey_local_machine)\\+(?:sam|security|system)\b/i, "saves the registry hives that hold the machine's password hashes", 'block'),
  e('secret_leak', 'vssadmin', /\bcreate\s+shadow\b/i, "makes a shadow copy, the usual road to the locked password database (SAM, ntds.dit)", 'require_approval'),
  e('secret_leak', 'procdump procdump64 rundll32', /lsass|comsvcs(?:\.dll)?[,\s]+minidump/i, "dumps the memory of the process that holds Windows' logins", 'block'),
  channel('curl wget http https xh', CREDENTIAL_ARG, 'sends or reads credential files through a URL', 'block'),
  e('secret_leak', 'security', /^\s*(?:dump-keychain|export)\b|find-(?:generic|internet)-password\b.*(?:^|\s)-[wg](?:\s|$)/i, 'prints the keychain’s secrets', 'require_approval'),
  e('secret_leak', 'dig nslookup host drill resolve-dnsname ping', /\$\(|`/, 'carries data out in DNS names', 'block'),
  // A raw disk or the machine's memory holds every file and secret on it, past every permission.
  e('secret_leak', 'cat head tail strings xxd hexdump hd od base64 less more grep rg cp tar gzip xz zstd nc dd get-content gc type', RAW_DEVICE, "reads a raw disk or the machine's memory, with every file and secret in it", 'require_approval'),
  e('secret_leak', 'cat head tail strings xxd hexdump hd od base64 less more grep rg cp dd gdb', PROCESS_MEMORY, "reads or writes another process's memory (the keys and passwords in it; code put there runs as that process)", 'require_approval'),
  e('secret_leak', 'gpg gpg2', /(?:^|\s)(?:-d|--decrypt)\b.*\.password-store\b/i, 'decrypts a password from the password store', 'require_approval'),
  e('secret_leak', 'pass gopass', /^\s*(?:show|otp)\s+\S/i, 'prints a password from the password store', 'require_approval', HELP),
  // ── escalates privilege ────────────────────────────────────────────────────────────────────────
  e('privilege_escalation', 'nsenter', /(?:^|\s)(?:-t|--target)[=\s]*1(?:\s|$)|(?:^|\s)-[a-zA-Z]*t1(?:\s|$)/, "enters the namespaces of the machine's first process: from a container, a root shell on the host", undefined, HELP),
  e('privilege_escalation', 'pkexec gsudo runas', undefined, 'runs a command as another user (administrator)', undefined, HELP),
  e('privilege_escalation', 'vault', /^\s*(?:-\S+\s+)*operator\s+generate-root\b|\btoken\s+create\b.*-policy[\s=]+["']?root\b/i, 'makes a Vault root token (every secret and policy of the cluster)', undefined, HELP),
  e('privilege_escalation', 'su', /^(?!.*(?:^|\s)-c\b)/, 'opens a shell as another user (root by default)', undefined, HELP),
  e('privilege_escalation', 'sudo doas', /(?:^|\s)(?:-i|-s|--login|--shell|su|bash|sh|zsh|fish|dash)(?:\s|$)/, 'opens a root shell'),
  e('privilege_escalation', 'start-process', /-verb\s+["']?runas/i, 'starts a program as administrator'),
  e('privilege_escalation', 'passwd', /(?:^|\s)root(?:\s|$)/i, "changes the administrator's password"),
  e('privilege_escalation', 'usermod gpasswd adduser', /\b(?:sudo|wheel|admin|root|docker)\b/i, 'gives a user administrator rights'),
  e('privilege_escalation', 'dseditgroup dscl', /\badmin\b.*(?:-a\b|-append|edit)|(?:-append|-a\b).*\badmin\b/i, 'gives a user administrator rights'),
  e('privilege_escalation', 'add-localgroupmember', /administrators/i, 'gives a user administrator rights'),
  e('privilege_escalation', 'net', /^localgroup\s+["']?administrators["']?\s+\S+\s+\/add/i, 'gives a user administrator rights'),
  e('privilege_escalation', 'chmod', /(?:^|\s)(?:[ugoa]*\+[rwx]*s|[4267][0-7]{3})(?:\s|$)/, 'sets the setuid or setgid bit (runs as the file\'s owner)'),
  e('privilege_escalation', 'setcap', /cap_(?:setuid|setgid|sys_admin|dac_override|sys_ptrace)/i, 'gives a program administrator capabilities'),
  e('privilege_escalation', 'grant', /\ball\b.*\bon\s+\*\.\*|\bsuperuser\b|\bwith\s+grant\s+option\b/i, 'gives a database user every right on every database'),
  e('privilege_escalation', 'alter', /^\s*(?:user|role)\b.*\b(?:superuser|createrole|bypassrls)\b/i, 'gives a database user every right'),
  e('privilege_escalation', 'visudo', undefined, 'edits who may become administrator', 'block'),
  e('privilege_escalation', 'aws', /\biam\s+(?:attach-(?:user|role|group)-policy|put-(?:user|role|group)-policy|create-access-key|create-login-profile|update-login-profile|add-user-to-group|update-assume-role-policy|create-policy-version)\b/i, 'grants cloud permissions or makes cloud credentials'),
  e('privilege_escalation', 'gcloud', /\badd-iam-policy-binding\b|\bset-iam-policy\b|\bservice-accounts\s+keys\s+create\b/i, 'grants cloud permissions or makes cloud credentials'),
  e('privilege_escalation', 'az', /\brole\s+assignment\s+create\b|\bad\s+(?:sp|app)\s+credential\s+reset\b/i, 'grants cloud permissions or makes cloud credentials'),
  e('privilege_escalation', 'kubectl oc', /\bcreate\s+(?:cluster)?rolebinding\b.*(?:cluster-admin|--clusterrole[=\s]+admin\b)|\badm\s+policy\s+add-cluster-role-to-user\s+cluster-admin\b/i, 'gives an account administrator rights on the cluster'),
  e('privilege_escalation', 'net', /^user\s+["']?[^\s"'/]+["']?\s+["']?[^\s/*"']/i, "sets a user's password", undefined, /\/del(?:ete)?\b/i),
  e('privilege_escalation', 'set-localuser', /-password\b/i, "sets a user's password"),
  e('privilege_escalation', 'chpasswd chpass', undefined, "sets users' passwords", undefined, HELP),
  e('privilege_escalation', 'passwd', /(?:^|\s)(?:-d|--delete|-u|--unlock)(?:\s|$)/, "removes or unlocks a user's password"),
  e('privilege_escalation', 'useradd adduser', /(?:^|\s)(?:-u|--uid)[\s=]*0(?:\s|$)|(?:^|\s)(?:-o|--non-unique)(?:\s|$)/, 'creates a second administrator (user id 0)'),
  e('privilege_escalation', 'dscl', /\s-passwd\s/i, "sets a user's password"),
  e('privilege_escalation', 'dscl', /\s-(?:create|append)\s+["']?\/Users\//i, 'creates or changes a user account'),
  e('privilege_escalation', 'sysadminctl', /-(?:addUser|resetPasswordFor)\b/i, "creates a user or sets a user's password"),
  e('privilege_escalation', 'new-localuser', undefined, 'creates a user account', undefined, HELP),
  // Windows' own files taken over or opened to everyone, as `chmod -R 777 /` is on Linux.
  e('privilege_escalation', 'takeown', /(?:^|\s)\/f\s+["']?[a-z]:[\\/]*(?:(?:windows|program files[^\\/"']*)(?:[\\/"'\s]|$)|["']?(?:\s|$))/i, "takes ownership of Windows' own files"),
  e('privilege_escalation', 'icacls', /\/grant(?::r)?\s+["']?(?:everyone|\*s-1-1-0|users|authenticated users|\*s-1-5-11):\(?(?:oi\)\(ci\)\(?)?[fm]\b|^\s*["']?[a-z]:[\\/]*(?:windows|program files[^\\/]*)?["']?\s.*\/grant/i, "gives everyone full control of files, or changes the rights on Windows' own"),
  // ── exposes a service or shell to the network ─────────────────────────────────────────────────
  e('network_exposure', 'ngrok', /\b(?:http|tcp|tls|start)\b/i, 'publishes a local port on the internet'),
  e('network_exposure', 'cloudflared', /\btunnel\b/i, 'publishes a local port on the internet', undefined, /\b(?:list|info|delete|login)\b/i),
  e('network_exposure', 'lt localtunnel bore serveo', undefined, 'publishes a local port on the internet', undefined, HELP),
  e('network_exposure', 'tailscale', /\bfunnel\b/i, 'publishes a local port on the internet', undefined, /\b(?:status|off|reset)\b/i),
  e('network_exposure', 'ssh', /(?:^|\s)-R\s*\S/, 'opens a port on another machine into this one'),
  e('network_exposure', 'socat', new RegExp(`listen.*${SERVED_SHELL.source}`, 'i'), 'serves a shell to the network', 'block'),
  e('network_exposure', 'socat', /listen.*(?:exec|system):/i, 'serves a program to the network', 'warn', SERVED_SHELL),
  e('network_exposure', 'aws', /authorize-security-group-(?:ingress|egress)\b.*(?:0\.0\.0\.0\/0|::\/0)/i, 'opens ports of cloud machines to the whole internet'),
  e('network_exposure', 'gcloud', /firewall-rules\s+(?:create|update)\b.*0\.0\.0\.0\/0/i, 'opens ports of cloud machines to the whole internet'),
  // Without a source, an ingress rule takes every address (0.0.0.0/0), and `az vm open-port` opens to any.
  e('network_exposure', 'gcloud', /^(?=.*\bfirewall-rules\s+create\b)(?=.*--allow\b)(?!.*--source-(?:ranges|tags|service-accounts)\b)(?!.*--direction[\s=]+["']?egress\b)/i, 'opens ports of cloud machines to the whole internet'),
  e('network_exposure', 'az', /\bvm\s+open-port\b/i, 'opens ports of cloud machines to the whole internet', undefined, HELP),
  e('network_exposure', 'az', /\bnsg\s+rule\s+(?:create|update)\b.*--source-address-prefix(?:es)?[\s=]+["']?(?:\*|internet|0\.0\.0\.0\/0|any)\b/i, 'opens ports of cloud machines to the whole internet'),
  e('network_exposure', 'aws', /\bput-(?:bucket|object)-acl\b.*public-read|\bs3\s+(?:cp|sync|mv)\b.*--acl[\s=]+public-read|\bput-bucket-policy\b.*"principal"\s*:\s*"\*"/i, 'makes a storage bucket or its objects public'),
  e('network_exposure', 'gsutil', /\b(?:acl|iam)\s+ch\b.*\ball(?:authenticated)?users\b|\bdefacl\s+ch\b.*\ballusers\b/i, 'makes a storage bucket or its objects public'),
  e('network_exposure', 'aws', /\bput-public-access-block\b.*=\s*false\b/i, "switches off a bucket's guard against public access"),
  e('network_exposure', 'az', /\bstorage\s+container\s+(?:create|set-permission)\b.*--public-access[\s=]+["']?(?:blob|container)\b|\bstorage\s+account\s+(?:create|update)\b.*--allow-blob-public-access[\s=]+["']?true\b/i, 'makes a storage container public'),
  // A private repository made public: its code, history and whatever secrets were ever committed can be read by anyone.
  e('network_exposure', 'gh', /\brepo\s+edit\b.*--visibility[\s=]+["']?public\b|\bapi\b.*(?:visibility=public|private=false)\b/i, 'makes a repository public'),
  e('network_exposure', 'enable-psremoting', undefined, 'opens PowerShell remoting to the network'),
  e('network_exposure', 'winrm', /quickconfig|\bqc\b/i, 'opens remote management to the network'),
  e('network_exposure', 'set-item', /wsman:.*trustedhosts/i, 'trusts any host for remote management'),
  e('network_exposure', 'reg', /fdenytsconnections.*\/d\s+0/i, 'turns on Remote Desktop'),
  e('network_exposure', 'set-itemproperty', /fdenytsconnections.*-value\s+0/i, 'turns on Remote Desktop'),
  e('network_exposure', 'netsh', /advfirewall\s+firewall\s+add\s+rule.*action=allow|portproxy\s+add/i, 'opens a port in the firewall'),
  e('network_exposure', 'new-netfirewallrule', /-action\s+allow/i, 'opens a port in the firewall'),
  e('network_exposure', 'systemsetup', /-setremotelogin\s+on|-setremoteappleevents\s+on/i, 'turns on remote login'),
  e('network_exposure', 'launchctl', /\bload\b.*ssh\.plist|\benable\b.*com\.openssh\.sshd/i, 'turns on remote login'),
  e('network_exposure', 'kickstart', /-activate/i, 'turns on remote desktop'),
  e('network_exposure', 'ufw', /^\s*allow\b/i, 'opens a port in the firewall', 'warn'),
  e('network_exposure', 'ufw', /^\s*default\s+allow\s+(?:incoming|in|routed)\b/i, 'lets every incoming connection through the firewall'),
  // Servers that run code or hold data, opened to every interface without a password.
  e('network_exposure', 'dockerd', /(?:-H|--host)[\s=]+["']?tcp:\/\/(?!127\.|localhost|\[::1\])/i, "serves the Docker daemon (root on this machine) over TCP", 'block', /--tlsverify\b/),
  e('network_exposure', 'redis-server redis-cli', /protected-mode\s+["']?no\b/i, 'lets any host use the database without a password'),
  e('network_exposure', 'mongod', /^(?=.*(?:--bind_ip_all|--bind_ip[\s=]+["']?0\.0\.0\.0))(?!.*--auth\b)/i, 'serves the database to every network without authentication'),
  e('network_exposure', 'jupyter jupyter-notebook jupyter-lab', /^(?=.*--ip[\s=]+["']?(?:0\.0\.0\.0|\*|::))(?=.*--(?:NotebookApp|ServerApp|IdentityProvider)\.token[\s=]+(?:''|""|\s|$))/i, 'serves a notebook (code execution) to every network without a token'),
  e('network_exposure', 'vncserver tigervncserver xvnc x11vnc', /-securitytypes[\s=]+["']?none\b|(?:^|\s)-nopw\b/i, "serves this machine's desktop without a password", undefined, /(?:^|\s)-localhost\b(?!\s+no)/i),
  e('network_exposure', 'kubectl', /\bport-forward\b.*--address[\s=]+["']?(?:0\.0\.0\.0|::)/i, "serves a cluster's service on every interface of this machine"),
  e('network_exposure', 'code code-insiders', /^\s*tunnel(?:\s+(?!status|kill|prune|rename|unregister|user\s+(?:show|logout)|--help|-h)\S|\s*$)/i, 'opens this machine to remote access through a VS Code tunnel'),
  // ── takes down shared infrastructure ───────────────────────────────────────────────────────────
  e('shared_infrastructure', 'docker podman', /\bsystem\s+prune\b.*(?:-\w*a\w*\b|--all)|\b(?:volume|image)\s+prune\b.*(?:-\w*a\w*\b|--all)/i, 'deletes every unused image, container or volume of the machine'),
  e('shared_infrastructure', 'docker podman', /\bsystem\s+prune\b/i, 'deletes every stopped container, unused network and dangling image of the machine, and the build cache'),
  e('shared_infrastructure', 'docker podman', /\b(?:rm|kill|stop|rmi)\b.*\$\((?:docker|podman)\s+(?:ps|images)/i, 'removes every container or image of the machine'),
  e('shared_infrastructure', 'pg_dropcluster', undefined, 'deletes a PostgreSQL cluster with all its databases', undefined, HELP),
  e('shared_infrastructure', 'vault', /^\s*(?:-\S+\s+)*operator\s+(?:raft\s+snapshot\s+restore|seal)\b/i, "replaces or seals the secrets of a Vault cluster others use", undefined, HELP),
  e('shared_infrastructure', 'pg_ctlcluster pg_ctl', /\bstop\b/i, 'stops a database server others use', 'warn'),
  e('shared_infrastructure', 'mongo mongosh', /dropdatabase\s*\(|\.drop\s*\(/i, 'drops a database or collection'),
  e('shared_infrastructure', 'systemctl', /^\s*(?:--\S+\s+)*(?:stop|disable|mask|kill)\s+\S/i, 'stops or disables a service of the machine', undefined, /(?:^|\s)--user(?:\s|$)/),
  e('shared_infrastructure', 'service', /^\s*\S+\s+stop\b/i, 'stops a service of the machine'),
  e('shared_infrastructure', 'launchctl', /^\s*(?:bootout|disable|unload|remove|kill)\s+\S/i, 'stops or removes a service of the machine'),
  e('shared_infrastructure', 'launchctl', /^\s*reboot\b/i, 'reboots the machine', 'block'),
  e('shared_infrastructure', 'nginx apache2ctl apachectl httpd', /(?:^|\s)-[sk]\s+(?:stop|quit|graceful-stop)\b/i, 'stops a web server others use'),
  e('shared_infrastructure', 'systemctl', /^\s*(?:isolate|set-default)\s+(?:rescue|emergency|multi-user)|\b(?:rescue|emergency)\b/i, "changes what the machine boots into"),
  e('shared_infrastructure', 'stop-service suspend-service', undefined, 'stops a service of the machine', undefined, HELP),
  e('shared_infrastructure', 'set-service', /-startuptype\s+disabled|-status\s+stopped/i, 'stops or disables a service of the machine'),
  e('shared_infrastructure', 'sc', /^\s*(?:stop|delete|config\s+\S+\s+start=\s*disabled)\b/i, 'stops or removes a service of the machine'),
  e('shared_infrastructure', 'net', /^\s*stop\s+\S/i, 'stops a service of the machine'),
  e('shared_infrastructure', 'networksetup', /-set(?:dnsservers|searchdomains|v6off|v4off|networkserviceenabled|airportpower|manual|dhcp|webproxy|securewebproxy|socksfirewallproxy)\b/i, "rewrites the machine's network or DNS settings"),
  e('shared_infrastructure', 'resolvectl', /\b(?:dns|domain|revert|flush-caches)\b\s+\S/i, "rewrites the machine's DNS settings"),
  e('shared_infrastructure', 'nmcli', /\bnetworking\s+off|\bradio\s+\w+\s+off|\bconnection\s+(?:delete|down|modify)|\bdevice\s+(?:disconnect|down|delete)/i, "takes the machine's network down"),
  e('shared_infrastructure', 'ip', /\blink\s+set\s+\S+\s+down|\broute\s+(?:flush|del)|\baddr\s+flush/i, "takes the machine's network down"),
  e('shared_infrastructure', 'ifconfig', /\s+down\b/i, "takes a network interface down"),
  e('shared_infrastructure', 'route', /\b(?:delete|del|flush)\b|(?:^|\s)-f(?:\s|$)/i, "removes the machine's routes"),
  e('shared_infrastructure', 'set-dnsclientserveraddress set-dnsclient disable-netadapter remove-netroute remove-netipaddress', undefined, "rewrites the machine's network or DNS settings"),
  e('shared_infrastructure', 'netsh', /interface\s+(?:ip|ipv4|ipv6)\s+(?:set|delete)\s+(?:dns|dnsservers|address)|interface\s+set\s+interface.*disable/i, "rewrites the machine's network or DNS settings"),
  e('shared_infrastructure', 'nvram', /(?:^|\s)(?:-c|-d)(?:\s|$)|(?:^|\s)["']?[\w:-]+=/i, "clears or rewrites the machine's firmware settings", 'block'),
  e('shared_infrastructure', 'bless', /--setboot|--mount|--folder/i, 'changes what the machine boots'),
  e('shared_infrastructure', 'bcdedit', /\/set\s+\{[\w-]+\}\s+safeboot\b/i, 'makes the machine start in safe mode, without its network and services', 'require_approval'),
  e('shared_infrastructure', 'bcdedit', /\/(?:delete|deletevalue|set\s+\{(?:bootmgr|default|current)\}\s+(?:device|osdevice|path))|\/import|\/createstore/i, "rewrites the machine's boot configuration", 'block'),
  e('shared_infrastructure', 'bootsect bcdboot', undefined, "rewrites the machine's boot sector", 'block', HELP),
  e('shared_infrastructure', 'efibootmgr', /(?:^|\s)(?:-B|--delete-bootnum|-b\s+\S+\s+-B|-o|--bootorder|-A|--inactive)(?:\s|$)/, "rewrites the machine's boot entries", 'block'),
  e('shared_infrastructure', 'grub-install grub2-install update-grub grub-mkconfig grub2-mkconfig', undefined, "rewrites the machine's boot loader", undefined, HELP),
  e('shared_infrastructure', 'stop-computer restart-computer', undefined, 'shuts the machine down', 'block'),
  // ── runs code nobody has read ─────────────────────────────────────────────────────────────────
  e('hidden_code', 'powershell pwsh', /(?:^|\s)-(?:e|ec|enc|encodedcommand|encodedc\w*)\s+[a-z0-9+/=]{8,}/i, 'runs an encoded PowerShell command'),
  e('hidden_code', 'invoke-expression iex', /iwr|invoke-webrequest|irm|invoke-restmethod|downloadstring|webclient|frombase64string/i, 'runs code it downloads or decodes'),
  e('hidden_code', 'invoke-expression iex', undefined, 'runs a string as PowerShell code', 'require_approval', LOCAL_SCRIPT_READ),
  e('hidden_code', 'rg', /(?:^|\s)--(?:pre|hostname-bin)(?:[=\s]|$)/i, 'runs another program on every file it searches', 'require_approval'),
  e('hidden_code', 'certutil', /-urlcache\b.*(?:https?|ftp):\/\/|-verifyctl\b.*https?:/i, 'downloads a file with a system tool (a common way past download filters)', 'require_approval'),
  e('hidden_code', 'bitsadmin', /\/(?:transfer|addfile)\b/i, 'downloads a file with a system tool (a common way past download filters)', 'require_approval'),
  e('hidden_code', 'mshta', /(?:https?|ftp|javascript|vbscript):/i, 'runs a script from the web, or written inline, with mshta'),
  e('hidden_code', 'regsvr32', /\/i:\s*["']?(?:https?|ftp):/i, 'runs a script from the web through regsvr32'),
  e('hidden_code', 'rundll32', /javascript:|url\.dll,\s*(?:fileprotocolhandler|openurl)|shell32\.dll,\s*shellexec_rundll\s+["']?(?:https?|ftp):/i, 'runs a script from the web, or written inline, through rundll32'),
  e('hidden_code', 'npm pnpm yarn', /\bconfig\s+set\s+(?:@[\w-]+:)?registry\b(?![\s=]+["']?https:\/\/registry\.(?:npmjs\.org|yarnpkg\.com)\/?["']?(?:\s|$))/i, 'makes every later install fetch packages from another registry', 'require_approval'),
  e('hidden_code', 'pip pip3', /\bconfig\s+set\s+\S*index-url\b/i, 'makes every later install fetch packages from another index', 'require_approval'),
  e('hidden_code', 'pip pip3 uv', /(?:--index-url|--extra-index-url|(?:^|\s)-i)[\s=]+["']?http:\/\/(?!localhost|127\.|\[::1\])/i, 'installs packages over plain HTTP (anyone on the way can change them)', 'require_approval'),
];

/** The catalogue by program. */
const BY_PROGRAM: ReadonlyMap<string, readonly HarmEntry[]> = (() => {
  const map = new Map<string, HarmEntry[]>();
  for (const entry of HARM_CATALOGUE) for (const program of entry.programs) map.set(program, [...(map.get(program) ?? []), entry]);
  return map;
})();

/** The code an interpreter runs from its command line or a here-document (`python3 -c …`, `node -e …`, PowerShell `-Command …`). */
const CODE = new DerivedValue((segment: ShellSegment) => readInlineCode(segment));

export function inlineCodeText(segment: ShellSegment): string | undefined {
  // Most segments run no interpreter: answered without keeping anything on them.
  return CODE_RUNNERS.test(segment.program) ? CODE.of(segment) : undefined;
}

const CODE_RUNNERS = /^(?:python[\d.]*|pypy[\d.]*|node|nodejs|bun|deno|perl|ruby|php|pwsh|powershell|osascript)$/;

/** An interpreter whose command line can carry the code it runs. */
export function runsInlineCode(program: string): boolean {
  return CODE_RUNNERS.test(program);
}

function readInlineCode(segment: ShellSegment): string | undefined {
  const parts: string[] = [];
  const args = segment.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    if (/^(?:-[a-zA-Z]*[ceErp]|--eval|--print|-command|eval)$/i.test(args[i]!) && args[i + 1] !== undefined) parts.push(args.slice(i + 1).join(' '));
  }
  for (const r of segment.redirects) if (r.operator.startsWith('<<')) parts.push(r.target);
  return parts.length ? codeWithoutComments(segment.program, parts.join('\n')) : undefined;
}

export interface HarmHit {
  entry: HarmEntry;
  /** The command as written: program and its first arguments. */
  shown: string;
}

function entryMatches(entry: HarmEntry, program: string, args: string, segment: ShellSegment | undefined): boolean {
  if (entry.unless?.test(args)) return false;
  if (entry.args && !entry.args.test(args)) return false;
  switch (entry.kind) {
    case 'secret_leak':
      return secretLeak(entry, program, args, segment);
    case 'data_destruction':
      // Remove-Item -Recurse, rd /s: the catalogue's part is the system, a drive and the homes (project paths are the filesystem pack's).
      if (/^(?:remove-item|ri|rd|rmdir|del|erase)$/.test(program)) {
        // Each operand on its own: `"C:\Users\Mohit J Madhu\src\app"` is one path, not `C:\Users\Mohit` and more.
        // `Get-ChildItem C:\Users -Recurse | Remove-Item -Recurse -Force`: what the finders before it name is what it deletes.
        const pipe = args.lastIndexOf(' | ');
        const fed = pipe >= 0 ? windowsWords(args.slice(0, pipe)).filter((w) => w !== '|' && !FILE_FINDERS.test(w)) : [];
        const operands = [...(segment ? segment.argv.slice(1) : windowsWords(pipe >= 0 ? args.slice(pipe + 3) : args)), ...fed].filter((a) => !/^-\w+$|^\/[a-z]$/i.test(a)).map((a) => a.trim());
        // PowerShell's registry drives: `Remove-Item -Recurse HKLM:\Software` deletes keys, as `reg delete` does.
        return entry.what === REGISTRY_DELETION ? operands.some((a) => REGISTRY_PATH.test(a)) : operands.some((a) => PROTECTED_WINDOWS.test(a));
      }
      return true;
    default:
      return true;
  }
}

function secretLeak(entry: HarmEntry, program: string, args: string, segment: ShellSegment | undefined): boolean {
  if (entry.what.startsWith('searches')) return KEY_MATERIAL.test(args) && BROAD_ROOT.test(` ${args.replace(/["']/g, ' ')} `) && !/-maxdepth\s+[01]\b/.test(args);
  if (!entry.credential) return true;
  // curl's own client certificate and CA options name key files it authenticates with, not ones it sends.
  if (/^(?:curl|wget|http|https|xh)$/.test(program)) args = args.replace(/(?:^|\s)(?:--key|--cert|-E|--cacert|--capath|--proxy-key|--proxy-cert|--certificate|--private-key|--ca-certificate|--netrc-file)(?:\s+|=)\S+/g, ' ');
  // scp's and rsync's identity file or ssh command (`scp -i key`, `rsync -e 'ssh -i key'`) is used, not copied.
  if (segment && /^(?:rsync|scp|sftp)$/.test(program)) args = copierOperands(segment).join(' ');
  // A public key is made to be handed out (`scp ~/.ssh/id_ed25519.pub host:`).
  args = args.replace(/\S+\.pub(?=\s|$|["'])/g, ' ');
  const credential = entry.credential === 'whole' ? CREDENTIAL_TAKEN : CREDENTIAL_ARG;
  const named = credential.test(args) || (segment?.redirects.some((r) => r.operator === '<' && CREDENTIAL_ARG.test(` ${r.target}`)) ?? false);
  if (!named) return false;
  // A request to a server on this machine (the project's own, on localhost) keeps what it carries here.
  if (/^(?:curl|wget|http|https|xh)$/.test(program) && segment && requestsOnlyThisMachine(segment.argv.slice(1))) return false;
  // Nor does a value read from a secret file and sent to the service it is for (the project's own API and its key).
  if (/^(?:curl|http|https|xh)$/.test(program) && segment && sendsOnlyToItsOwnService(segment)) return false;
  // A copy onto this machine (`rsync ~/.ssh/ backup/`) keeps the keys here; one to a host or a bucket does not.
  if (/^(?:rsync|scp|rclone)$/.test(program)) return /(?:^|\s)[\w.-]*@?[\w.-]+:|[a-z0-9]+:\/\/|(?:^|\s)[\w-]+:[^\s/]/i.test(args);
  return true;
}

/** PowerShell's commands that find processes for a Stop-Process down the pipe. */
const PROCESS_FINDERS = /^(?:get-process|gps|where-object|where|\?)$/;
/** What reads a file for an Invoke-Expression down the pipe (`Get-Content x.ps1 -Raw | Invoke-Expression`). */
const SCRIPT_READERS = /^(?:get-content|gc|cat|type|out-string)$/;
/** Per program, the commands before it in a pipe that say what it acts on. */
/** PowerShell's and cmd's commands that list files for a Remove-Item down the pipe. */
const FILE_FINDERS = /^(?:get-childitem|gci|ls|dir|get-item|gi)$/i;
const FEEDERS: ReadonlyMap<string, RegExp> = new Map([
  ['stop-process', PROCESS_FINDERS],
  ['spps', PROCESS_FINDERS],
  ['invoke-expression', SCRIPT_READERS],
  ['remove-item', FILE_FINDERS],
  ['ri', FILE_FINDERS],
  ['iex', SCRIPT_READERS],
]);

/** How the catalogue reads one kind of simple command: a shell segment, or a cmd / PowerShell command. */
interface CommandView<T> {
  program(command: T): string;
  /** The command as written, program and arguments. */
  whole(command: T): string;
  pipedFrom(command: T): boolean;
}
// A word with spaces is quoted again, so that a finder's `"C:\Users\Yash Sud\…"` stays one path when read back.
const SEGMENT_VIEW: CommandView<ShellSegment> = { program: (s) => s.program, whole: (s) => s.argv.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' '), pipedFrom: (s) => s.pipedFrom };
const WINDOWS_VIEW: CommandView<WindowsCommand> = { program: (c) => c.program, whole: (c) => `${c.program} ${c.args}`, pipedFrom: (c) => c.pipedFrom };

/**
 * A command's arguments (`own`) as the catalogue reads them; a Stop-Process fed by a pipe from Get-Process or
 * Where-Object reads `<finder> <its arguments> | <own arguments>`, since that is what names its processes;
 * an Invoke-Expression fed by Get-Content, the file it runs.
 */
function argumentsOf<T>(commands: readonly T[], i: number, own: string, view: CommandView<T>): string {
  const feeders = i > 0 && view.pipedFrom(commands[i]!) ? FEEDERS.get(view.program(commands[i]!)) : undefined;
  if (!feeders) return own;
  const finders: string[] = [];
  for (let j = i - 1; j >= 0 && feeders.test(view.program(commands[j]!)); j--) {
    finders.unshift(view.whole(commands[j]!));
    if (!view.pipedFrom(commands[j]!)) break;
  }
  return finders.length ? `${finders.join(' | ')} | ${own}` : own;
}

/** Every secret file an HTTP client's arguments read values from goes to the service it is for. */
function sendsOnlyToItsOwnService(segment: ShellSegment): boolean {
  const words = segment.argv.slice(1);
  const files = [...new Set(words.map(secretFileIn).filter((f): f is string => f !== undefined))];
  return files.length > 0 && files.every((file) => requestsItsOwnService(words, file));
}

/** Every catalogue entry the action's commands match (read once per action: each kind's rule asks). */
export function harmHits(action: ParsedAction): HarmHit[] {
  return HITS.of(action);
}

const HITS = new DerivedValue((action: ParsedAction): HarmHit[] => {
  const hits: HarmHit[] = [];
  const check = (program: string, args: () => string, segment?: ShellSegment) => {
    const entries = BY_PROGRAM.get(program);
    if (!entries) return;
    const text = args();
    let shown: string | undefined;
    for (const entry of entries) {
      if (!entryMatches(entry, program, text, segment)) continue;
      // A pipe's finders come first in the text: it is shown as written.
      shown ??= (text.includes(' | ') && segment?.pipedFrom ? text.replace(/\| (?=[^|]*$)/, `| ${segment.argv[0]} `) : `${program} ${text}`).trim().slice(0, 80);
      hits.push({ entry, shown });
    }
  };
  action.segments.forEach((segment, i, all) => check(segment.program, () => argumentsOf(all, i, segment.argv.slice(1).join(' '), SEGMENT_VIEW), segment));
  windowsCommands(action).forEach((command, i, all) => check(command.program, () => argumentsOf(all, i, command.args, WINDOWS_VIEW)));
  return hits;
});
