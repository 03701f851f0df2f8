import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { claudeCodeTelemetry, installCodexTelemetry, uninstallCodexTelemetry } from './telemetry-install.js';

const gatewayUrl = 'http://127.0.0.1:3108';
const token = 'claude-code.s3cret';

describe("the agents' telemetry, as warden hook install writes it", () => {
  it('sends Claude Code\'s logs and metrics to the gateway with the agent\'s token when the user exports neither', () => {
    expect(claudeCodeTelemetry({ gatewayUrl, agentId: 'claude-code', token, userEnv: {} })).toEqual({
      path: 'telemetry',
      signals: ['logs', 'metrics'],
      env: {
        CLAUDE_CODE_ENABLE_TELEMETRY: '1',
        OTEL_LOGS_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'http://127.0.0.1:3108/v1/logs',
        OTEL_EXPORTER_OTLP_LOGS_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_LOGS_HEADERS: 'Authorization=Bearer%20claude-code.s3cret',
        OTEL_METRICS_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://127.0.0.1:3108/v1/metrics',
        OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'Authorization=Bearer%20claude-code.s3cret',
        OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: 'delta',
      },
      notes: [],
    });
  });

  it("leaves a signal the user exports to the user's exporter and takes the other", () => {
    const plan = claudeCodeTelemetry({ gatewayUrl, agentId: 'claude-code', token, userEnv: { OTEL_METRICS_EXPORTER: 'prometheus' } });
    expect(plan.signals).toEqual(['logs']);
    expect(Object.keys(plan.env).filter((k) => k.includes('METRICS'))).toEqual([]);
    expect(plan.notes).toEqual(["Claude Code's metrics stay with your exporter (OTEL_METRICS_EXPORTER=prometheus): Claude Code exports each signal to one OTLP endpoint."]);
  });

  it('reads the usage from the transcript when the user exports both, and says how to send Warden a copy', () => {
    const plan = claudeCodeTelemetry({ gatewayUrl, agentId: 'claude-code', token, userEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.example:4318' } });
    expect(plan).toMatchObject({ path: 'transcript', signals: [], env: {} });
    expect(plan.notes.at(-1)).toContain('otlphttp/warden');
  });

  it("adds Codex's [otel] exporter to its config.toml, keeps what is there, and takes it out again", () => {
    const dir = mkdtempSync(join(tmpdir(), 'codex-otel-'));
    const file = join(dir, 'config.toml');
    try {
      writeFileSync(file, 'model = "gpt-5.5"\n');
      expect(installCodexTelemetry(file, { gatewayUrl, agentId: 'codex', token: 'codex.s3cret' })).toMatchObject({ path: 'telemetry', written: true });
      const config = parse(readFileSync(file, 'utf8')) as { model: string; otel: { exporter: { 'otlp-http': { endpoint: string; protocol: string; headers: Record<string, string> } } } };
      expect(config.model).toBe('gpt-5.5');
      expect(config.otel.exporter['otlp-http']).toEqual({ endpoint: 'http://127.0.0.1:3108/v1/logs', protocol: 'binary', headers: { Authorization: 'Bearer codex.s3cret' } });
      // Installed again: one block.
      installCodexTelemetry(file, { gatewayUrl, agentId: 'codex', token: 'codex.s3cret' });
      expect(readFileSync(file, 'utf8').match(/\[otel\]/g)).toHaveLength(1);
      expect(uninstallCodexTelemetry(file)).toBe(true);
      expect(readFileSync(file, 'utf8')).toBe('model = "gpt-5.5"\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps a Codex exporter the user has, and reads the rollout transcript instead", () => {
    const dir = mkdtempSync(join(tmpdir(), 'codex-otel-'));
    const file = join(dir, 'config.toml');
    try {
      const theirs = '[otel]\nexporter = { otlp-http = { endpoint = "https://otel.example.com/v1/logs", protocol = "json" } }\n';
      writeFileSync(file, theirs);
      expect(installCodexTelemetry(file, { gatewayUrl, agentId: 'codex', token: 'codex.s3cret' })).toMatchObject({ path: 'transcript', written: false });
      expect(readFileSync(file, 'utf8')).toBe(theirs);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
