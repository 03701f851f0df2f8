import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, type Command } from '../command.js';
import { HookInstallError, INSTALLED_EVENTS, installHook } from '../hook/hook-install.js';
import { runHook } from '../hook/hook-runner.js';
import { HOOK_DEFAULTS, type HookConfigFile } from '../hook/hook-settings.js';
import { out } from '../output.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const WARDEN_BIN = fileURLToPath(new URL('../../bin/warden.js', import.meta.url));

function install(values: Record<string, unknown>): number {
  const projectDir = resolve((values.project as string | undefined) ?? process.cwd());
  if (!existsSync(projectDir)) throw new UsageError(`project directory ${projectDir} does not exist`);
  const credentials = values.credentials as string | undefined;
  const defaultCredentials = resolve('.warden', 'credentials.json');
  const credentialsFile = credentials ? resolve(credentials) : existsSync(defaultCredentials) ? defaultCredentials : undefined;
  const config: HookConfigFile = {
    servers: (values['nats-url'] as string | undefined) ?? HOOK_DEFAULTS.servers,
    agentId: (values.agent as string | undefined) ?? HOOK_DEFAULTS.agentId,
    ...(credentialsFile ? { credentialsFile } : {}),
    deadlineMs: HOOK_DEFAULTS.deadlineMs,
    failOpenTools: [],
  };
  const command = (values.command as string | undefined) ?? `${JSON.stringify(process.execPath)} ${JSON.stringify(WARDEN_BIN)} hook`;
  try {
    const result = installHook({ projectDir, command, config });
    out.line(`Claude Code hooks (${INSTALLED_EVENTS.join(', ')}) → ${result.settingsPath}`);
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

export const hookCommand: Command = {
  name: 'hook',
  summary: 'Claude Code hook adapter: put a Claude Code session under Warden',
  help: `Usage: warden hook                  (run by Claude Code; reads the hook payload on stdin)
       warden hook install [options]  (adds the hook to a project's .claude/settings.json)

As a PreToolUse hook it proposes the tool call to Warden and answers Claude Code with allow (warn,
modify with updatedInput) or deny with the reason for the model; held actions wait for the gate.
Control messages for the session (corrections, reminders, operator messages) come back as
additionalContext; an emergency stop answers "continue": false. As a PostToolUse / PostToolUseFailure
hook it reports the outcome; as a SessionEnd hook it records the run for the automation ladder. When Warden cannot be reached or does not answer within the deadline the
hook exits 2 (Claude Code blocks the call) unless the tool is listed as fail-open.

Install options:
  --project DIR       the project to supervise [current directory]
  --agent ID          the agent's NATS user [${HOOK_DEFAULTS.agentId}]
  --nats-url URL      where Warden's NATS is [${HOOK_DEFAULTS.servers}]
  --credentials FILE  credentials file of \`warden up\` [./.warden/credentials.json when present]
  --command CMD       the command Claude Code runs [this warden, absolute path]

Settings (<project>/${HOOK_DEFAULTS.configFile}, overridden by the environment):
  servers          WARDEN_NATS_URL              [${HOOK_DEFAULTS.servers}]
  agentId          WARDEN_AGENT_ID              [${HOOK_DEFAULTS.agentId}]
  password         WARDEN_AGENT_PASSWORD        (or credentialsFile)
  deadlineMs       WARDEN_HOOK_DEADLINE_MS      [${HOOK_DEFAULTS.deadlineMs}]
  failOpenTools    WARDEN_HOOK_FAIL_OPEN_TOOLS  [none: every tool fails closed]
  stateDir         WARDEN_HOOK_STATE_DIR        [${HOOK_DEFAULTS.stateDir}]
  expectedPaths    [<cwd>/**]
  WARDEN_HOOK_CONFIG: another settings file.`,
  options: {
    project: { type: 'string' },
    agent: { type: 'string' },
    'nats-url': { type: 'string' },
    credentials: { type: 'string' },
    command: { type: 'string' },
  },
  async run(values, positionals) {
    if (positionals[0] === 'install') {
      if (positionals.length > 1) throw new UsageError(`unexpected argument(s): ${positionals.slice(1).join(' ')}`);
      return install(values);
    }
    if (positionals.length) throw new UsageError(`unknown hook command "${positionals[0]}" (only install)`);
    const result = await runHook(await readStdin());
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    // A connection attempt that lost the race must not keep Claude Code waiting.
    setTimeout(() => process.exit(result.code), 200).unref();
    return result.code;
  },
};
