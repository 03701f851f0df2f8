import type { VerdictKind } from '@warden/contracts';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { commandName } from '../parsing/command-facts.js';
import { builtInRule } from './built-in-rule.js';
import type { ReviewRule } from './review-rule.js';
import { CREDENTIAL_ARG, harmHits, inlineCodeText, type HarmHit, type HarmKind } from './harm-catalogue.js';

/** Each kind of harm: its rule, its default verdict, and what is at stake, for the reason (README, "Kinds of harm"). */
interface KindSpec {
  rule: string;
  verdict: VerdictKind;
  description: string;
  stake: string;
  alternative: string;
  factors: string[];
  /** Findings of the kind that are not a catalogue entry (the action as a whole). */
  extra?: (action: ParsedAction) => { what: string; shown: string; verdict?: VerdictKind } | null;
}

/** The cloud instance metadata service: its answers include the machine's cloud credentials. */
const METADATA_ENDPOINT = /169\.254\.169\.254|169\.254\.170\.2|metadata\.google\.internal|metadata\.azure\.com|100\.100\.100\.200|fd00:ec2::254/i;
const SHELLS = new Set(['bash', 'sh', 'zsh', 'fish', 'dash', 'ksh', 'csh', 'tcsh', 'su']);
const PRIVILEGED_CHANGES = new Set(['rm', 'rmdir', 'shred', 'dd', 'mv', 'truncate', 'chown', 'chmod', 'chgrp', 'kill', 'killall', 'pkill', 'tee', 'cp', 'ln', 'mkfs', 'find', 'sed', 'rsync']);

function metadataRequest(action: ParsedAction): string | undefined {
  const text = action.command ?? Object.values(action.input).filter((v) => typeof v === 'string').join(' ');
  return action.urls.find((u) => METADATA_ENDPOINT.test(u)) ?? (METADATA_ENDPOINT.test(text) ? text.match(METADATA_ENDPOINT)![0] : undefined);
}

const KINDS: Record<HarmKind, KindSpec> = {
  data_destruction: {
    rule: 'system_data_destruction',
    verdict: 'require_approval',
    description: "Erasing disks, volumes, partitions, backups, restore points, user accounts or the registry, on Linux, macOS and Windows (diskutil, diskpart, format, vssadmin, dscl, Remove-LocalUser, reg delete, Remove-Item -Recurse of the system or a home).",
    stake: 'what it destroys cannot be brought back by the project or by git',
    alternative: 'Delete only what the task names, inside the project; leave disks, backups, accounts and the registry to the user.',
    factors: ['irreversible', 'system_modification', 'file_deletion'],
  },
  safety_control: {
    rule: 'safety_control_disabled',
    verdict: 'require_approval',
    description: 'Switching off a safety control of the machine: firewalls (iptables, ufw, pf, netsh advfirewall), SIP and Gatekeeper, SELinux and AppArmor, Microsoft Defender and its exclusions, audit and event logs, boot protections, git hooks and commit signing.',
    stake: 'the machine or the repository loses a protection the user set up',
    alternative: 'Work within the protection; if the task truly needs it off, say why and let the user switch it off.',
    factors: ['safety_control', 'system_modification'],
  },
  secret_leak: {
    rule: 'secret_leak',
    verdict: 'block',
    description: "Secrets leaving by any channel: credential files archived, copied to cloud storage, sent with rsync/scp/nc, DNS lookups that carry data, interpreters printing keys, searches for key material across the machine, the cloud metadata endpoint's credentials.",
    stake: 'credentials leave their place and can be used by whoever gets the copy',
    alternative: 'Leave credential files where they are; check that a credential is configured with the tool’s own status command.',
    factors: ['secrets', 'exfiltration'],
    extra(action) {
      const endpoint = metadataRequest(action);
      if (endpoint) return { what: "asks the cloud metadata service, whose answers include the machine's cloud credentials", shown: endpoint, verdict: 'block' };
      for (const segment of action.segments) {
        const code = inlineCodeText(segment);
        if (code && CREDENTIAL_ARG.test(code)) return { what: 'reads private keys or credentials in code', shown: `${commandName(segment)} code`, verdict: 'require_approval' };
      }
      return null;
    },
  },
  privilege_escalation: {
    rule: 'privilege_escalation',
    verdict: 'require_approval',
    description: 'Raising privileges: root shells (su, sudo -i/-s, sudo bash, pkexec, doas), runas and Start-Process -Verb RunAs, administrator group membership, setuid bits and capabilities, and changes made with sudo (sudo rm, sudo chown …).',
    stake: 'with administrator rights one mistake reaches the whole machine',
    alternative: 'Run it without administrator rights, or tell the user what needs them and why.',
    factors: ['privileged', 'privilege_escalation'],
    extra(action) {
      for (const segment of action.segments) {
        if (!segment.privileged) continue;
        const name = commandName(segment);
        // `sudo -i`, `sudo -s`, `doas -s`: the wrapper with no command of its own opens a root shell.
        if (!segment.argv.length && segment.wrappers.length) return { what: 'opens a root shell', shown: segment.wrappers.join(' ') };
        if (SHELLS.has(name) && !segment.argv.slice(1).some((a) => a === '-c' || (!a.startsWith('-') && name !== 'su'))) return { what: 'opens a root shell', shown: segment.wrappers.concat(segment.argv).join(' ') };
        if (PRIVILEGED_CHANGES.has(name) && !(name === 'sed' && !segment.argv.some((a) => /^-[a-zA-Z]*i/.test(a)))) return { what: 'changes files or processes with administrator rights', shown: segment.wrappers.concat(segment.argv).join(' ').slice(0, 80) };
      }
      return null;
    },
  },
  network_exposure: {
    rule: 'network_exposure',
    verdict: 'require_approval',
    description: 'Exposing a service or a shell to the network: tunnels (ngrok, cloudflared, tailscale funnel, ssh -R), shells on a socket (socat … EXEC), remote login, Remote Desktop and PowerShell remoting switched on, firewall rules that let traffic in.',
    stake: 'anyone who reaches the port reaches this machine',
    alternative: 'Keep the service on localhost; if it must be reachable, let the user open it.',
    factors: ['network_exposure', 'network_request'],
  },
  shared_infrastructure: {
    rule: 'shared_infrastructure_takedown',
    verdict: 'require_approval',
    description: "Taking down what others use: pruning every image and volume, removing every container, dropping database clusters, stopping shared services (databases, docker, web servers, sshd), rewriting the machine's network, DNS, routes, firmware and boot configuration.",
    stake: 'it stops or destroys infrastructure other people and programs rely on',
    alternative: 'Act on the project’s own containers, databases and services by name; leave the machine’s to the user.',
    factors: ['shared_infrastructure', 'system_modification'],
  },
};

const STRENGTH: Record<string, number> = { allow: 0, warn: 1, modify: 2, require_approval: 3, block: 4 };

function kindRule(kind: HarmKind): ReviewRule {
  const spec = KINDS[kind];
  return builtInRule({
    name: spec.rule,
    description: spec.description,
    reads: 'action',
    check({ action }) {
      let best: { what: string; shown: string; verdict: VerdictKind } | null = null;
      for (const hit of harmHits(action) as HarmHit[]) {
        if (hit.entry.kind !== kind) continue;
        const verdict = hit.entry.verdict ?? spec.verdict;
        if (!best || STRENGTH[verdict]! > STRENGTH[best.verdict]!) best = { what: hit.entry.what, shown: hit.shown, verdict };
      }
      const extra = spec.extra?.(action);
      if (extra) {
        const verdict = extra.verdict ?? spec.verdict;
        if (!best || STRENGTH[verdict]! > STRENGTH[best.verdict]!) best = { what: extra.what, shown: extra.shown, verdict };
      }
      if (!best) return null;
      return {
        verdict: best.verdict,
        score: best.verdict === 'block' ? 0.95 : best.verdict === 'require_approval' ? 0.85 : 0.6,
        factors: spec.factors,
        reason: `${best.shown} ${best.what}: ${spec.stake}. ${best.verdict === 'block' ? 'This is not allowed.' : best.verdict === 'warn' ? 'Make sure the task calls for it.' : 'A person must approve it.'}`,
        alternative: spec.alternative,
      };
    },
  });
}

/** One rule per kind of harm, in the catalogue's order. */
export const HARM_RULES: readonly ReviewRule[] = (Object.keys(KINDS) as HarmKind[]).map(kindRule);
