import { existsSync, readFileSync } from 'node:fs';
import { APPROVAL_ROUTES } from '@warden/agent-edge';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, type Command } from '../command.js';
import { COMMAND_EVENTS, HookInstallError, HTTP_EVENTS, installHook, TOKEN_VARIABLE } from '../hook/hook-install.js';
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

function install(values: Record<string, unknown>): number {
  const projectDir = resolve((values.project as string | undefined) ?? process.cwd());
  if (!existsSync(projectDir)) throw new UsageError(`project directory ${projectDir} does not exist`);
  const transport = (values.transport as string | undefined) ?? 'http';
  if (transport !== 'http' && transport !== 'command') throw new UsageError(`--transport must be http or command (got "${transport}")`);
  const approvals = values.approvals as string | undefined;
  if (approvals !== undefined && !(APPROVAL_ROUTES as readonly string[]).includes(approvals)) throw new UsageError(`--approvals must be one of ${APPROVAL_ROUTES.join(', ')}`);
  const agentId = (values.agent as string | undefined) ?? HOOK_DEFAULTS.agentId;
  const credentialsFile = credentialsPath(values);
  try {
    if (transport === 'http') {
      const query = new URLSearchParams({ ...(values.decide ? { decide: 'true' } : {}), ...(approvals ? { approvals } : {}) }).toString();
      const url = `${((values['gateway-url'] as string | undefined) ?? DEFAULT_GATEWAY).replace(/\/+$/, '')}/hooks/claude-code${query ? `?${query}` : ''}`;
      const token = tokenOf(credentialsFile, agentId);
      const result = installHook({ projectDir, target: { transport: 'http', url }, ...(token ? { token } : {}) });
      out.line(`Claude Code HTTP hooks (${HTTP_EVENTS.join(', ')}) → ${result.settingsPath}`);
      if (result.tokenPath) out.line(`Agent ${agentId}'s token (${TOKEN_VARIABLE}) → ${result.tokenPath}`);
      else out.warn(`no token for agent ${agentId} found (start the suite with --agent ${agentId}): set ${TOKEN_VARIABLE}=<agent id>.<password> where Claude Code runs`);
      return 0;
    }
    const config: HookConfigFile = {
      servers: (values['nats-url'] as string | undefined) ?? HOOK_DEFAULTS.servers,
      agentId,
      ...(credentialsFile ? { credentialsFile } : {}),
      deadlineMs: HOOK_DEFAULTS.deadlineMs,
      failOpenTools: [],
      ...(values.decide ? { decide: true } : {}),
      ...(approvals ? { approvals: approvals as HookConfigFile['approvals'] } : {}),
    };
    const command = (values.command as string | undefined) ?? `${JSON.stringify(process.execPath)} ${JSON.stringify(HOOK_BIN)}`;
    const result = installHook({ projectDir, target: { transport: 'command', command }, config });
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

/** `warden hook token`: prints the agent's token, e.g. for `export WARDEN_AGENT_TOKEN=$(warden hook token)`. */
function printToken(values: Record<string, unknown>): number {
  const agentId = (values.agent as string | undefined) ?? HOOK_DEFAULTS.agentId;
  const token = tokenOf(credentialsPath(values), agentId);
  if (!token) {
    out.error(`no token for agent ${agentId}: start the suite with \`warden up --agent ${agentId}\` (or give --credentials)`);
    return 1;
  }
  out.line(token);
  return 0;
}

export const hookCommand: Command = {
  name: 'hook',
  summary: 'Claude Code hook adapter: put a Claude Code session under Warden',
  help: `Usage: warden hook install [options]  (puts a project's Claude Code sessions under Warden)
       warden hook token [--agent ID]      (prints the agent's token for the HTTP hook)
       warden hook                         (the command hook, run by Claude Code: the payload on stdin)

By default Claude Code POSTs each hook event to Warden's agent gateway (type "http" hooks, with
"onFailure": "block" on PreToolUse and UserPromptSubmit, so that an unreachable Warden blocks the call);
--transport command runs \`warden hook\` instead, for Claude Code without http hooks. Both give the same
answers: no permission decision when Warden has no objection (Claude Code's own rules apply; --decide
lets Warden approve on the user's behalf), deny with the reason for the model, warnings to the model and
the user, ask for a changed input or an approval at an interactive terminal (an operator at the gate
decides for a headless session, or always with --approvals operator); control messages as
additionalContext; an emergency stop answers "continue": false.

Install options:
  --project DIR       the project to supervise [current directory]
  --transport T       http or command [http]
  --agent ID          the agent [${HOOK_DEFAULTS.agentId}]
  --credentials FILE  credentials file of \`warden up\` [./.warden/credentials.json when present]
  --decide            Warden approves on the user's behalf what it has no objection to
  --approvals A       who answers require_approval: auto, terminal, operator [auto]
  --gateway-url URL   the agent gateway (http) [${DEFAULT_GATEWAY}]
  --nats-url URL      where Warden's NATS is (command) [${HOOK_DEFAULTS.servers}]
  --command CMD       the command Claude Code runs (command) [node bin/warden-hook.cjs of this warden, absolute paths]

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
    project: { type: 'string' },
    transport: { type: 'string' },
    agent: { type: 'string' },
    'nats-url': { type: 'string' },
    'gateway-url': { type: 'string' },
    credentials: { type: 'string' },
    command: { type: 'string' },
    decide: { type: 'boolean' },
    approvals: { type: 'string' },
  },
  async run(values, positionals) {
    if (positionals[0] === 'install' || positionals[0] === 'token') {
      if (positionals.length > 1) throw new UsageError(`unexpected argument(s): ${positionals.slice(1).join(' ')}`);
      return positionals[0] === 'install' ? install(values) : printToken(values);
    }
    if (positionals.length) throw new UsageError(`unknown hook command "${positionals[0]}" (install or token)`);
    const result = await runHook(await readStdin());
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    // A connection attempt that lost the race must not keep Claude Code waiting.
    setTimeout(() => process.exit(result.code), 200).unref();
    return result.code;
  },
};
