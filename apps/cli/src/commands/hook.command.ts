import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { AGENT_ADAPTERS, agentAdapter, APPROVAL_ROUTES, type AgentAdapter } from '@warden/agent-edge';
import { HookInstallError as AgentInstallError, installAgentHooks, uninstallAgentHooks, type InstallPlace } from '../hook/agent-install.js';
import { AGENT_INSTALLS } from '../hook/agents/index.js';
import { doctor } from '../hook/hook-doctor.js';
import { fileURLToPath } from 'node:url';
import { UsageError, type Command } from '../command.js';
import { COMMAND_EVENTS, HookInstallError, HTTP_EVENTS, installHook, TOKEN_VARIABLE, uninstallHook } from '../hook/hook-install.js';
import { runHook } from '../hook/hook-runner.js';
import { HOOK_DEFAULTS, type HookConfigFile } from '../hook/hook-settings.js';
import { out } from '../output.js';
import {
  claudeCodeTelemetry,
  claudeCodeUserEnv,
  installCodexTelemetry,
  readTelemetryRecord,
  removeTelemetryRecord,
  uninstallCodexTelemetry,
  writeTelemetryRecord,
  type UsagePath,
} from '../hook/telemetry-install.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const HOOK_BIN = fileURLToPath(new URL('../../bin/warden-hook.cjs', import.meta.url));

/** Where `warden up` runs the agent gateway. */
const DEFAULT_GATEWAY = 'http://127.0.0.1:3108';

function credentialsPath(values: Record<string, unknown>): string | undefined {
  const given = values.credentials as string | undefined;
  const local = resolve('.warden', 'credentials.json');
  return given ? resolve(given) : existsSync(local) ? local : undefined;
}

/** The agent's token for the HTTP hook: `<agent id>.<its NATS password>`, from `warden up`'s credentials file. */
function tokenOf(path: string | undefined, agentId: string): string | undefined {
  if (!path) return undefined;
  let credentials: { agents?: Record<string, string> };
  try {
    credentials = JSON.parse(readFileSync(path, 'utf8')) as typeof credentials;
  } catch (error) {
    throw new UsageError(`cannot read the credentials file ${path}: ${(error as Error).message}`);
  }
  const password = credentials.agents?.[agentId];
  return password ? `${agentId}.${password}` : undefined;
}

/** The agent product a hook command is for (`--agent`, Claude Code by default), or a usage error naming every one. */
function adapterOf(values: Record<string, unknown>): AgentAdapter {
  const name = (values.agent as string | undefined) ?? 'claude-code';
  const adapter = agentAdapter(name);
  if (!adapter) throw new UsageError(`--agent must be one of ${[...AGENT_ADAPTERS.keys()].join(', ')} (got "${name}"); Warden's agent id is --agent-id`);
  return adapter;
}

/** Where: the project (`--project DIR`, the current directory by default) or the user's own configuration (`--user`). */
function placeOf(values: Record<string, unknown>): InstallPlace {
  if (values.user) {
    if (values.project) throw new UsageError('--user and --project exclude each other');
    return { scope: 'user', dir: homedir() };
  }
  const dir = resolve((values.project as string | undefined) ?? process.cwd());
  if (!existsSync(dir)) throw new UsageError(`project directory ${dir} does not exist`);
  return { scope: 'project', dir };
}

/** The answer settings an installed hook passes in the gateway's query. */
function answerQuery(values: Record<string, unknown>, usage: UsagePath = 'telemetry'): string {
  const approvals = values.approvals as string | undefined;
  if (approvals !== undefined && !(APPROVAL_ROUTES as readonly string[]).includes(approvals)) throw new UsageError(`--approvals must be one of ${APPROVAL_ROUTES.join(', ')}`);
  // Without the agent's telemetry, the gateway reads the session's usage from its transcript.
  return new URLSearchParams({ ...(values.decide ? { decide: 'true' } : {}), ...(approvals ? { approvals } : {}), ...(usage === 'transcript' ? { usage: 'transcript' } : {}) }).toString();
}

/** Which path a setup's spend takes, from `--usage` (auto: telemetry where Warden can set it up). */
function usageOption(values: Record<string, unknown>): 'auto' | UsagePath {
  const usage = (values.usage as string | undefined) ?? 'auto';
  if (usage !== 'auto' && usage !== 'telemetry' && usage !== 'transcript') throw new UsageError(`--usage must be auto, telemetry or transcript (got "${usage}")`);
  return usage;
}

/** Claude Code's settings files a session reads its env from, besides Warden's own keys. */
function claudeSettingsFiles(place: InstallPlace): string[] {
  const user = join(homedir(), '.claude', 'settings.json');
  if (place.scope === 'user') return [user];
  return [user, join(place.dir, '.claude', 'settings.json'), join(place.dir, '.claude', 'settings.local.json')];
}

/** Writes Warden's telemetry env into a Claude Code settings file (its `env`), replacing what Warden wrote there before. */
function writeClaudeTelemetry(place: InstallPlace, env: Record<string, string>): string | undefined {
  const file = place.scope === 'user' ? join(place.dir, '.claude', 'settings.json') : join(place.dir, '.claude', 'settings.local.json');
  const previous = readTelemetryRecord(place.dir, 'claude-code');
  const settings = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const current = { ...((settings.env as Record<string, string> | undefined) ?? {}) };
  for (const key of previous?.keys ?? []) delete current[key];
  const merged = { ...current, ...env };
  if (!Object.keys(env).length && !previous) return undefined;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ ...settings, ...(Object.keys(merged).length ? { env: merged } : {}) }, null, 2)}\n`, { mode: 0o600 });
  if (Object.keys(env).length) writeTelemetryRecord(place.dir, 'claude-code', { file, keys: Object.keys(env) });
  else removeTelemetryRecord(place.dir, 'claude-code');
  return file;
}

function removeClaudeTelemetry(place: InstallPlace): boolean {
  const record = readTelemetryRecord(place.dir, 'claude-code');
  if (!record) return false;
  if (existsSync(record.file)) {
    const settings = JSON.parse(readFileSync(record.file, 'utf8')) as Record<string, unknown>;
    const env = { ...((settings.env as Record<string, string> | undefined) ?? {}) };
    for (const key of record.keys) delete env[key];
    const { env: _env, ...rest } = settings;
    writeFileSync(record.file, `${JSON.stringify(Object.keys(env).length ? { ...rest, env } : rest, null, 2)}\n`, { mode: 0o600 });
  }
  removeTelemetryRecord(place.dir, 'claude-code');
  return true;
}

/** Codex's config.toml beside its hooks.json. */
const codexConfigToml = (place: InstallPlace) => (place.scope === 'user' ? join(process.env.CODEX_HOME || join(place.dir, '.codex'), 'config.toml') : join(place.dir, '.codex', 'config.toml'));

function reportUsage(path: UsagePath, signals: string): void {
  out.line(path === 'telemetry' ? `Spend: from the agent's telemetry (${signals}) to the gateway` : "Spend: read from the session's transcript by the gateway (the agent's telemetry does not reach Warden); the gateway must run on the agent's machine");
}

function install(values: Record<string, unknown>): number {
  const adapter = adapterOf(values);
  const place = placeOf(values);
  const agentId = (values['agent-id'] as string | undefined) ?? adapter.name;
  const credentialsFile = credentialsPath(values);
  const token = tokenOf(credentialsFile, agentId);
  const gatewayUrl = ((values['gateway-url'] as string | undefined) ?? DEFAULT_GATEWAY).replace(/\/+$/, '');
  const usage = usageOption(values);
  const noToken = () => out.warn(`no token for agent ${agentId} found (start the suite with \`warden up --agent ${agentId}\`, or give --credentials): the hook cannot reach Warden until one is installed`);
  if (adapter.name !== 'claude-code') {
    const agentInstall = AGENT_INSTALLS.get(adapter.name);
    if (!agentInstall) throw new UsageError(`warden hook install does not write ${adapter.title}'s configuration yet`);
    try {
      let path: UsagePath = 'transcript';
      const notes: string[] = [];
      if (adapter.name === 'codex' && usage !== 'transcript') {
        const telemetry = installCodexTelemetry(codexConfigToml(place), { gatewayUrl, agentId, ...(token ? { token } : {}) });
        path = telemetry.path;
        notes.push(...telemetry.notes);
      }
      const report = installAgentHooks({ install: agentInstall, place, gatewayUrl, query: answerQuery(values, path), ...(token ? { token } : {}) });
      out.line(`${adapter.title} hooks (${agentInstall.events.join(', ')}) → ${report.configFile}`);
      reportUsage(path, 'OTLP logs');
      for (const note of notes) out.line(note);
      if (report.shim) out.line(`Command shim → ${report.shim}${report.tokenFile ? `; agent ${agentId}'s token → ${report.tokenFile}` : ''}`);
      else if (report.tokenFile) out.line(`Agent ${agentId}'s token → ${report.tokenFile}`);
      if (!token) noToken();
      for (const note of report.notes) out.line(note);
      return 0;
    } catch (error) {
      if (error instanceof AgentInstallError) {
        out.error(error.message);
        return 1;
      }
      throw error;
    }
  }
  const transport = (values.transport as string | undefined) ?? 'http';
  if (transport !== 'http' && transport !== 'command') throw new UsageError(`--transport must be http or command (got "${transport}")`);
  try {
    const telemetry =
      usage === 'transcript'
        ? { path: 'transcript' as const, signals: [], env: {}, notes: [] }
        : claudeCodeTelemetry({ gatewayUrl, agentId, ...(token ? { token } : {}), userEnv: claudeCodeUserEnv(claudeSettingsFiles(place), process.env, readTelemetryRecord(place.dir, 'claude-code')?.keys ?? []) });
    const telemetryFile = writeClaudeTelemetry(place, telemetry.env);
    const query = answerQuery(values, telemetry.path);
    const announce = () => {
      reportUsage(telemetry.path, telemetry.signals.join(' and '));
      if (telemetry.path === 'telemetry' && telemetryFile) out.line(`Claude Code telemetry settings (env) → ${telemetryFile}`);
      for (const note of telemetry.notes) out.line(note);
    };
    if (transport === 'http') {
      const url = `${gatewayUrl}/hooks/claude-code${query ? `?${query}` : ''}`;
      const result = installHook({ projectDir: place.dir, scope: place.scope, target: { transport: 'http', url }, ...(token ? { token } : {}) });
      out.line(`Claude Code HTTP hooks (${HTTP_EVENTS.join(', ')}) → ${result.settingsPath}`);
      if (result.tokenPath) out.line(`Agent ${agentId}'s token (${TOKEN_VARIABLE}) → ${result.tokenPath}`);
      else noToken();
      announce();
      return 0;
    }
    const approvals = values.approvals as HookConfigFile['approvals'] | undefined;
    const config: HookConfigFile = {
      servers: (values['nats-url'] as string | undefined) ?? HOOK_DEFAULTS.servers,
      agentId,
      ...(credentialsFile ? { credentialsFile } : {}),
      deadlineMs: HOOK_DEFAULTS.deadlineMs,
      failOpenTools: [],
      ...(values.decide ? { decide: true } : {}),
      ...(approvals ? { approvals } : {}),
      ...(telemetry.path === 'transcript' ? { usage: 'transcript' as const } : {}),
    };
    const command = (values.command as string | undefined) ?? `${JSON.stringify(process.execPath)} ${JSON.stringify(HOOK_BIN)}`;
    const result = installHook({ projectDir: place.dir, scope: place.scope, target: { transport: 'command', command }, config });
    out.line(`Claude Code hooks (${COMMAND_EVENTS.join(', ')}) → ${result.settingsPath}`);
    out.line(result.configWritten ? `Warden hook settings → ${result.configPath}` : `Kept the existing ${result.configPath}`);
    if (!credentialsFile) out.warn(`no credentials file found: set WARDEN_AGENT_PASSWORD, or "password"/"credentialsFile" in ${result.configPath}`);
    announce();
    return 0;
  } catch (error) {
    if (error instanceof HookInstallError) {
      out.error(error.message);
      return 1;
    }
    throw error;
  }
}

/** `warden hook uninstall`: takes Warden's entries out of the agent's configuration; the user's own hooks stay. */
function uninstall(values: Record<string, unknown>): number {
  const adapter = adapterOf(values);
  const place = placeOf(values);
  try {
    if (adapter.name === 'claude-code') {
      const result = uninstallHook({ projectDir: place.dir, scope: place.scope });
      out.line(result.removed ? `Warden's hooks removed from ${result.settingsPath}` : `No Warden hooks in ${result.settingsPath}`);
      if (removeClaudeTelemetry(place)) out.line("Warden's telemetry settings removed from Claude Code's env");
      return 0;
    }
    if (adapter.name === 'codex' && uninstallCodexTelemetry(codexConfigToml(place))) out.line(`Warden's [otel] removed from ${codexConfigToml(place)}`);
    const agentInstall = AGENT_INSTALLS.get(adapter.name);
    if (!agentInstall) throw new UsageError(`warden hook uninstall does not know ${adapter.title}'s configuration yet`);
    const result = uninstallAgentHooks(agentInstall, place);
    out.line(result.removed ? `Warden's hooks removed from ${result.configFile}` : `No ${adapter.title} hook configuration found`);
    return 0;
  } catch (error) {
    if (error instanceof HookInstallError || error instanceof AgentInstallError) {
      out.error(error.message);
      return 1;
    }
    throw error;
  }
}

/** `warden hook token`: prints the agent's token, e.g. for `export WARDEN_AGENT_TOKEN=$(warden hook token)`. */
function printToken(values: Record<string, unknown>): number {
  const agentId = (values['agent-id'] as string | undefined) ?? (values.agent as string | undefined) ?? HOOK_DEFAULTS.agentId;
  const token = tokenOf(credentialsPath(values), agentId);
  if (!token) {
    out.error(`no token for agent ${agentId}: start the suite with \`warden up --agent ${agentId}\` (or give --credentials)`);
    return 1;
  }
  out.line(token);
  return 0;
}

const AGENTS = [...AGENT_ADAPTERS.values()].map((a) => `${a.name} (${a.title})`).join(', ');

export const hookCommand: Command = {
  name: 'hook',
  summary: "Put a coding agent's sessions under Warden: install, remove and check its hooks",
  help: `Usage: warden hook install [--agent NAME] [--project DIR | --user] [options]
       warden hook uninstall [--agent NAME] [--project DIR | --user]
       warden hook doctor [--agent NAME] [--project DIR | --user]
       warden hook token [--agent-id ID]      (prints the agent's token)
       warden hook [--agent NAME]             (the command hook, run by the agent: the payload on stdin)

Agents (--agent, default claude-code): ${AGENTS}.

install writes the agent's own hook configuration in its documented place, merged with what is there
(the user's own hooks stay; an earlier Warden entry is replaced), and the agent's token beside it:
  claude-code  .claude/settings.json (HTTP hooks to the gateway; the token in .claude/settings.local.json);
               --transport command runs \`warden hook\` instead
  codex        .codex/hooks.json (or ~/.codex/hooks.json with --user): each event runs the command shim
               .warden/hooks/codex.sh, which posts to the gateway and blocks the call (exit 2) when
               Warden cannot be reached. Codex runs new hooks once you trust them (/hooks).
  cursor       .cursor/hooks.json (~/.cursor with --user): the shim
  copilot      .github/hooks/warden.json (~/.copilot/hooks/warden.json with --user): the shim
  gemini       .gemini/settings.json (~/.gemini with --user): the shim
  antigravity  .agents/hooks.json (~/.gemini/config/hooks.json with --user): the shim, which prints agy's
               deny when Warden cannot be reached
  factory      .factory/hooks.json (or the hooks of .factory/settings.json; ~/.factory with --user): the shim
  opencode     .opencode/plugins/warden.js (~/.config/opencode/plugins with --user): Warden's plugin for
               OpenCode 2.x, which posts to the gateway itself and blocks the call when it cannot
uninstall takes only Warden's entries out again. doctor says whether the installed hook can reach Warden
with its token.

Answers: no permission decision when Warden has no objection (the agent's own rules apply; --decide lets
Warden approve on the user's behalf where the agent allows that), deny with the reason for the model,
warnings to the model and the user, ask for a changed input or an approval where the agent can ask (an
operator at the gate decides otherwise, or always with --approvals operator); control messages as text
for the model; an emergency stop denies every call. apps/gateway/README.md has what each decision
becomes for each agent.

Options:
  --agent NAME        the agent product [claude-code]
  --project DIR       the project to supervise [current directory]
  --user              the user's own configuration (every project), where the agent has one
  --agent-id ID       Warden's agent id, whose token the hook uses [the agent's name]
  --credentials FILE  credentials file of \`warden up\` [./.warden/credentials.json when present]
  --decide            Warden approves on the user's behalf what it has no objection to
  --approvals A       who answers require_approval: auto, terminal, operator [auto]
  --gateway-url URL   the agent gateway [${DEFAULT_GATEWAY}]
  --usage U           where the session's spend comes from: auto (the agent's telemetry to the gateway
                      where Warden can set it up without taking over the user's own exporters, else the
                      transcript), telemetry, transcript [auto]
  --transport T       claude-code only: http or command [http]
  --nats-url URL      claude-code command transport: where Warden's NATS is [${HOOK_DEFAULTS.servers}]
  --command CMD       claude-code command transport: the command Claude Code runs [node bin/warden-hook.cjs of this warden]

Command hook settings (<project>/${HOOK_DEFAULTS.configFile}, overridden by the environment):
  servers          WARDEN_NATS_URL              [${HOOK_DEFAULTS.servers}]
  agentId          WARDEN_AGENT_ID              [${HOOK_DEFAULTS.agentId}]
  password         WARDEN_AGENT_PASSWORD        (or credentialsFile)
  deadlineMs       WARDEN_HOOK_DEADLINE_MS      [${HOOK_DEFAULTS.deadlineMs}]
  failOpenTools    WARDEN_HOOK_FAIL_OPEN_TOOLS  [none: every tool fails closed]
  decide           WARDEN_HOOK_DECIDE           [false]
  approvals        WARDEN_HOOK_APPROVALS        [auto]
  stateDir         WARDEN_HOOK_STATE_DIR        [${HOOK_DEFAULTS.stateDir}]
  expectedPaths    [<cwd>/**]
  WARDEN_HOOK_CONFIG: another settings file.`,
  options: {
    agent: { type: 'string' },
    'agent-id': { type: 'string' },
    project: { type: 'string' },
    user: { type: 'boolean' },
    transport: { type: 'string' },
    'nats-url': { type: 'string' },
    'gateway-url': { type: 'string' },
    credentials: { type: 'string' },
    command: { type: 'string' },
    decide: { type: 'boolean' },
    approvals: { type: 'string' },
    usage: { type: 'string' },
  },
  async run(values, positionals) {
    const [verb, ...rest] = positionals;
    if (verb) {
      if (rest.length) throw new UsageError(`unexpected argument(s): ${rest.join(' ')}`);
      switch (verb) {
        case 'install':
          return install(values);
        case 'uninstall':
          return uninstall(values);
        case 'doctor':
          return doctor(adapterOf(values), placeOf(values));
        case 'token':
          return printToken(values);
        default:
          throw new UsageError(`unknown hook command "${verb}" (install, uninstall, doctor or token)`);
      }
    }
    const result = await runHook(await readStdin(), process.env, adapterOf(values));
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    // A connection attempt that lost the race must not keep the agent waiting.
    setTimeout(() => process.exit(result.code), 200).unref();
    return result.code;
  },
};
