import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseToml } from 'smol-toml';

/**
 * Where a session's spend comes from in a setup `warden hook install` wrote: the agent's own telemetry
 * (OTLP to the gateway), or its transcript, read by the hook (the gateway, on the agent's machine) when
 * no telemetry of the agent reaches Warden.
 */
export type UsagePath = 'telemetry' | 'transcript';

type Signal = 'metrics' | 'logs';
const SIGNALS: readonly Signal[] = ['logs', 'metrics'];
const SIGNAL_VAR: Record<Signal, string> = { metrics: 'METRICS', logs: 'LOGS' };

/** Claude Code's telemetry settings for Warden, and what they leave to the user's own exporters. */
export interface TelemetryPlan {
  path: UsagePath;
  /** The signals Warden receives. */
  signals: Signal[];
  /** What goes into the settings' `env` (Claude Code) or the `[otel]` table (Codex). */
  env: Record<string, string>;
  notes: string[];
}

/** Whether the user's own environment already exports a signal (an exporter, or an endpoint for it or for all). */
function userExports(env: Record<string, string>, signal: Signal): string | undefined {
  const v = SIGNAL_VAR[signal];
  const exporter = env[`OTEL_${v}_EXPORTER`];
  if (exporter && exporter !== 'none') return `OTEL_${v}_EXPORTER=${exporter}`;
  if (env[`OTEL_EXPORTER_OTLP_${v}_ENDPOINT`]) return `OTEL_EXPORTER_OTLP_${v}_ENDPOINT=${env[`OTEL_EXPORTER_OTLP_${v}_ENDPOINT`]}`;
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) return `OTEL_EXPORTER_OTLP_ENDPOINT=${env.OTEL_EXPORTER_OTLP_ENDPOINT}`;
  return undefined;
}

/** An OpenTelemetry Collector pipeline that sends what the user exports to Warden as well. */
export function collectorSnippet(gatewayUrl: string, agentId: string): string {
  return [
    'exporters:',
    '  otlphttp/warden:',
    `    endpoint: ${gatewayUrl}`,
    '    headers:',
    `      Authorization: "Bearer \${env:WARDEN_AGENT_TOKEN}"   # warden hook token --agent-id ${agentId}`,
    'service:',
    '  pipelines:',
    '    logs:    { receivers: [otlp], exporters: [<yours>, otlphttp/warden] }',
    '    metrics: { receivers: [otlp], exporters: [<yours>, otlphttp/warden] }',
  ].join('\n');
}

/**
 * Claude Code's telemetry for Warden (https://code.claude.com/docs/en/monitoring-usage): telemetry on,
 * and for each signal the user does not export yet, an OTLP exporter to the gateway with the agent's
 * token, through the signal's own variables (OTEL_EXPORTER_OTLP_LOGS_ENDPOINT, …) so that nothing the
 * user set for another signal changes; metrics as deltas, Claude Code's default. A signal the user
 * already exports stays theirs: Claude Code has one OTLP exporter per signal. With neither signal
 * free, Warden reads the usage from the transcript, and the note says how to send Warden a copy from
 * the user's collector.
 */
export function claudeCodeTelemetry(options: { gatewayUrl: string; agentId: string; token?: string; userEnv: Record<string, string> }): TelemetryPlan {
  const notes: string[] = [];
  if (!options.token) return { path: 'transcript', signals: [], env: {}, notes: ['no agent token: telemetry is not set up; Warden reads the usage from the transcript'] };
  const taken: Signal[] = [];
  const env: Record<string, string> = {};
  for (const signal of SIGNALS) {
    const theirs = userExports(options.userEnv, signal);
    if (theirs) {
      notes.push(`Claude Code's ${signal} stay with your exporter (${theirs}): Claude Code exports each signal to one OTLP endpoint.`);
      continue;
    }
    const v = SIGNAL_VAR[signal];
    taken.push(signal);
    env[`OTEL_${v}_EXPORTER`] = 'otlp';
    env[`OTEL_EXPORTER_OTLP_${v}_ENDPOINT`] = `${options.gatewayUrl}/v1/${signal}`;
    env[`OTEL_EXPORTER_OTLP_${v}_PROTOCOL`] = 'http/protobuf';
    env[`OTEL_EXPORTER_OTLP_${v}_HEADERS`] = `Authorization=Bearer%20${options.token}`;
  }
  if (!taken.length) {
    notes.push(`Warden reads the session's usage from the transcript instead. To give Warden the telemetry too, add it to your collector:\n${collectorSnippet(options.gatewayUrl, options.agentId)}`);
    return { path: 'transcript', signals: [], env: {}, notes };
  }
  env.CLAUDE_CODE_ENABLE_TELEMETRY = '1';
  if (taken.includes('metrics')) env.OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE = 'delta';
  return { path: 'telemetry', signals: taken, env, notes };
}

/** The environment a Claude Code session would get from the user's own settings (user, project, local) and the installing shell. */
export function claudeCodeUserEnv(settingsFiles: string[], processEnv: NodeJS.ProcessEnv, wardenKeys: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(processEnv)) if (key.startsWith('OTEL_') && value) env[key] = value;
  for (const file of settingsFiles) {
    if (!existsSync(file)) continue;
    try {
      const settings = JSON.parse(readFileSync(file, 'utf8')) as { env?: Record<string, unknown> };
      for (const [key, value] of Object.entries(settings.env ?? {})) if (typeof value === 'string' && !wardenKeys.includes(key)) env[key] = value;
    } catch {
      // A file Claude Code cannot read either.
    }
  }
  return env;
}

/** What Warden wrote for telemetry, so that uninstall takes exactly that out again: `.warden/telemetry.<agent>.json`. */
export const telemetryRecordPath = (dir: string, agent: string) => join(dir, '.warden', `telemetry.${agent}.json`);

export function readTelemetryRecord(dir: string, agent: string): { file: string; keys: string[] } | undefined {
  try {
    return JSON.parse(readFileSync(telemetryRecordPath(dir, agent), 'utf8')) as { file: string; keys: string[] };
  } catch {
    return undefined;
  }
}

export function writeTelemetryRecord(dir: string, agent: string, record: { file: string; keys: string[] }): void {
  const path = telemetryRecordPath(dir, agent);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
}

export function removeTelemetryRecord(dir: string, agent: string): void {
  rmSync(telemetryRecordPath(dir, agent), { force: true });
}

const OTEL_BEGIN = '# >>> Warden: Codex telemetry to the gateway (warden hook install; removed by warden hook uninstall)';
const OTEL_END = '# <<< Warden';

/**
 * Codex's telemetry for Warden (openai/codex docs/config.md, "Observability and telemetry"): an `[otel]`
 * table whose logs exporter posts OTLP/HTTP protobuf to the gateway with the agent's token, in the
 * config.toml of the same place as the hooks. Codex has one logs exporter: a config that already has an
 * `[otel]` exporter keeps it, and Warden reads the usage from the rollout transcript instead.
 */
export function installCodexTelemetry(configToml: string, options: { gatewayUrl: string; agentId: string; token?: string }): { path: UsagePath; notes: string[]; written: boolean } {
  if (!options.token) return { path: 'transcript', notes: ['no agent token: Codex telemetry is not set up; Warden reads the usage from the rollout transcript'], written: false };
  const existing = existsSync(configToml) ? readFileSync(configToml, 'utf8') : '';
  const withoutWarden = stripBlock(existing);
  let parsed: Record<string, unknown>;
  try {
    parsed = parseToml(withoutWarden) as Record<string, unknown>;
  } catch (error) {
    return { path: 'transcript', notes: [`${configToml} is not valid TOML (${(error as Error).message}); its telemetry was left alone and Warden reads the usage from the rollout transcript`], written: false };
  }
  const otel = parsed.otel as Record<string, unknown> | undefined;
  if (otel && otel.exporter !== undefined && otel.exporter !== 'none') {
    return {
      path: 'transcript',
      notes: [
        `Codex already exports its telemetry ([otel] in ${configToml}): it stays as it is (Codex has one logs exporter), and Warden reads the usage from the rollout transcript. To give Warden the telemetry too, add it to your collector:\n${collectorSnippet(options.gatewayUrl, options.agentId)}`,
      ],
      written: false,
    };
  }
  if (otel) return { path: 'transcript', notes: [`${configToml} has an [otel] table without an exporter: left alone; Warden reads the usage from the rollout transcript`], written: false };
  const block = [
    OTEL_BEGIN,
    '[otel]',
    'log_user_prompt = false',
    `exporter = { otlp-http = { endpoint = ${JSON.stringify(`${options.gatewayUrl}/v1/logs`)}, protocol = "binary", headers = { "Authorization" = ${JSON.stringify(`Bearer ${options.token}`)} } } }`,
    OTEL_END,
    '',
  ].join('\n');
  mkdirSync(dirname(configToml), { recursive: true });
  writeFileSync(configToml, `${withoutWarden.replace(/\n*$/, withoutWarden.trim() ? '\n\n' : '')}${block}`, { mode: 0o600 });
  chmodSync(configToml, 0o600);
  return { path: 'telemetry', notes: [`${configToml} now holds agent ${options.agentId}'s token (mode 600): keep it out of version control.`], written: true };
}

/** Codex's config.toml without Warden's [otel] block. */
export function uninstallCodexTelemetry(configToml: string): boolean {
  if (!existsSync(configToml)) return false;
  const text = readFileSync(configToml, 'utf8');
  const stripped = stripBlock(text);
  if (stripped === text) return false;
  if (stripped.trim()) writeFileSync(configToml, stripped.replace(/\n+$/, '\n'));
  else rmSync(configToml);
  return true;
}

function stripBlock(text: string): string {
  const start = text.indexOf(OTEL_BEGIN);
  if (start < 0) return text;
  const end = text.indexOf(OTEL_END, start);
  if (end < 0) return text;
  return text.slice(0, start) + text.slice(end + OTEL_END.length).replace(/^\n/, '');
}
