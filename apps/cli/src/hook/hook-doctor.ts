import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentAdapter } from '@warden/agent-edge';
import { out, style } from '../output.js';
import { isWardenEntry, wardenHooksDir, type InstallPlace } from './agent-install.js';
import { AGENT_INSTALLS } from './agents/index.js';
import { TOKEN_VARIABLE } from './hook-install.js';

interface Finding {
  ok: boolean;
  what: string;
  /** What to do about it, when it is not ok. */
  fix?: string;
}

/** Every hook entry in a parsed configuration, wherever the agent nests them. */
function entriesIn(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(entriesIn);
  if (!value || typeof value !== 'object') return [];
  return [value, ...Object.values(value).flatMap(entriesIn)];
}

/** What the installed hook calls: the gateway URL and the token it sends, as the install wrote them. */
function installed(adapter: AgentAdapter, place: InstallPlace, findings: Finding[]): { url?: string; token?: string } {
  if (adapter.name === 'claude-code') {
    const settingsPath = join(place.dir, '.claude', 'settings.json');
    const settings = existsSync(settingsPath) ? (JSON.parse(readFileSync(settingsPath, 'utf8')) as Record<string, unknown>) : {};
    const entries = entriesIn(settings.hooks).filter(isWardenEntry) as { url?: string; command?: string }[];
    findings.push(entries.length ? { ok: true, what: `Warden's hooks are in ${settingsPath}` } : { ok: false, what: `no Warden hooks in ${settingsPath}`, fix: `warden hook install --agent claude-code${place.scope === 'user' ? ' --user' : ` --project ${place.dir}`}` });
    const url = entries.find((e) => e.url)?.url;
    if (!url) return {};
    const localPath = place.scope === 'user' ? settingsPath : join(place.dir, '.claude', 'settings.local.json');
    const local = existsSync(localPath) ? (JSON.parse(readFileSync(localPath, 'utf8')) as { env?: Record<string, string> }) : {};
    const token = process.env[TOKEN_VARIABLE] ?? local.env?.[TOKEN_VARIABLE];
    findings.push(token ? { ok: true, what: `the agent's token is set (${TOKEN_VARIABLE})` } : { ok: false, what: `no agent token: ${TOKEN_VARIABLE} is not in ${localPath} nor in the environment`, fix: 'start the suite with `warden up --agent <id>` and install again' });
    return { url: url.split('?')[0], ...(token ? { token } : {}) };
  }
  const install = AGENT_INSTALLS.get(adapter.name);
  const configFile = install?.configFile(place);
  const text = configFile && existsSync(configFile) ? readFileSync(configFile, 'utf8') : '';
  const hasWarden = text.includes(`${join('.warden', 'hooks', `${adapter.name}.sh`)}`) || text.includes(`/hooks/${adapter.name}`);
  findings.push(hasWarden ? { ok: true, what: `Warden's hooks are in ${configFile}` } : { ok: false, what: `no Warden hooks in ${configFile ?? `${adapter.title}'s configuration`}`, fix: `warden hook install --agent ${adapter.name}${place.scope === 'user' ? ' --user' : ` --project ${place.dir}`}` });
  const tokenFile = join(wardenHooksDir(place), `${adapter.name}.token`);
  const token = existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : undefined;
  if (install?.plugin) {
    // The plugin is the configuration: it holds the gateway's URL and reads the token file.
    findings.push(token ? { ok: true, what: `the agent's token is in ${tokenFile}` } : { ok: false, what: `no agent token in ${tokenFile}`, fix: 'start the suite with `warden up --agent <id>` and install again' });
    const url = /"(https?:\/\/[^"?]*\/hooks\/[a-z-]+)[?"]/.exec(text)?.[1];
    return { ...(url ? { url } : {}), ...(token ? { token } : {}) };
  }
  const shim = join(wardenHooksDir(place), `${adapter.name}.sh`);
  let runnable = true;
  try {
    accessSync(shim, constants.R_OK);
  } catch {
    runnable = false;
  }
  findings.push(runnable ? { ok: true, what: `the command shim ${shim} is there` } : { ok: false, what: `the command shim ${shim} is missing`, fix: 'install again' });
  findings.push(token ? { ok: true, what: `the agent's token is in ${tokenFile}` } : { ok: false, what: `no agent token in ${tokenFile}`, fix: 'start the suite with `warden up --agent <id>` and install again' });
  const url = runnable ? /^url='([^']*)'/m.exec(readFileSync(shim, 'utf8'))?.[1] : undefined;
  return { ...(url ? { url } : {}), ...(token ? { token } : {}) };
}

/** Asks the gateway whether it is up and whether it takes the token (GET on the agent's endpoint). */
async function reach(url: string, token: string | undefined, findings: Finding[]): Promise<void> {
  const base = url.replace(/\/hooks\/[a-z-]+$/, '');
  try {
    const ready = await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(5_000) });
    findings.push(ready.ok ? { ok: true, what: `Warden's gateway answers at ${base}` } : { ok: false, what: `Warden's gateway at ${base} is not ready (${ready.status})`, fix: 'check `warden up` or the gateway\'s logs' });
    if (!ready.ok || !token) return;
  } catch (error) {
    findings.push({ ok: false, what: `Warden's gateway at ${base} cannot be reached (${(error as Error).message})`, fix: 'start it: `warden up`' });
    return;
  }
  const check = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) });
  const body = (await check.json().catch(() => ({}))) as { agent_id?: string; error?: string };
  findings.push(check.ok ? { ok: true, what: `the gateway takes the token: agent ${body.agent_id}` } : { ok: false, what: `the gateway refuses the token (${check.status}: ${body.error ?? 'no reason'})`, fix: 'install again with the token of a running suite' });
}

/** `warden hook doctor`: whether the installed hook can reach Warden, each check with what to do when it fails. */
export async function doctor(adapter: AgentAdapter, place: InstallPlace): Promise<number> {
  const findings: Finding[] = [];
  const { url, token } = installed(adapter, place, findings);
  if (url) await reach(url, token, findings);
  for (const f of findings) out.line(`${f.ok ? style.green('✔') : style.red('✘')} ${f.what}${f.ok || !f.fix ? '' : style.dim(`  → ${f.fix}`)}`);
  const ok = findings.every((f) => f.ok);
  out.line(ok ? `${adapter.title}'s hooks reach Warden.` : `${adapter.title}'s hooks cannot reach Warden yet.`);
  return ok ? 0 : 1;
}
