import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
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
function answerQuery(values: Record<string, unknown>): string {
  const approvals = values.approvals as string | undefined;
  if (approvals !== undefined && !(APPROVAL_ROUTES as readonly string[]).includes(approvals)) throw new UsageError(`--approvals must be one of ${APPROVAL_ROUTES.join(', ')}`);
  return new URLSearchParams({ ...(values.decide ? { decide: 'true' } : {}), ...(approvals ? { approvals } : {}) }).toString();
}

function install(values: Record<string, unknown>): number {
  const adapter = adapterOf(values);
  const place = placeOf(values);
  const agentId = (values['agent-id'] as string | undefined) ?? adapter.name;
  const credentialsFile = credentialsPath(values);
  const token = tokenOf(credentialsFile, agentId);
  const gatewayUrl = ((values['gateway-url'] as string | undefined) ?? DEFAULT_GATEWAY).replace(/\/+$/, '');
  const query = answerQuery(values);
  const noToken = () => out.warn(`no token for agent ${agentId} found (start the suite with \`warden up --agent ${agentId}\`, or give --credentials): the hook cannot reach Warden until one is installed`);
  if (adapter.name !== 'claude-code') {
    const agentInstall = AGENT_INSTALLS.get(adapter.name);
    if (!agentInstall) throw new UsageError(`warden hook install does not write ${adapter.title}'s configuration yet`);
    try {
      const report = installAgentHooks({ install: agentInstall, place, gatewayUrl, query, ...(token ? { token } : {}) });
      out.line(`${adapter.title} hooks (${agentInstall.events.join(', ')}) → ${report.configFile}`);
      out.line(`Command shim → ${report.shim}${report.tokenFile ? `; agent ${agentId}'s token → ${report.tokenFile}` : ''}`);
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
    if (transport === 'http') {
      const url = `${gatewayUrl}/hooks/claude-code${query ? `?${query}` : ''}`;
      const result = installHook({ projectDir: place.dir, scope: place.scope, target: { transport: 'http', url }, ...(token ? { token } : {}) });
      out.line(`Claude Code HTTP hooks (${HTTP_EVENTS.join(', ')}) → ${result.settingsPath}`);
      if (result.tokenPath) out.line(`Agent ${agentId}'s token (${TOKEN_VARIABLE}) → ${result.tokenPath}`);
      else noToken();
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
    };
    const command = (values.command as string | undefined) ?? `${JSON.stringify(process.execPath)} ${JSON.stringify(HOOK_BIN)}`;
    const result = installHook({ projectDir: place.dir, scope: place.scope, target: { transport: 'command', command }, config });
    out.line(`Claude Code hooks (${COMMAND_EVENTS.join(', ')}) → ${result.settingsPath}`);
    out.line(result.configWritten ? `Warden hook settings → ${result.configPath}` : `Kept the existing ${result.configPath}`);
    if (!credentialsFile) out.warn(`no credentials file found: set WARDEN_AGENT_PASSWORD, or "password"/"credentialsFile" in ${result.configPath}`);
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
      return 0;
    }
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
