// The nats.conf the official NATS Helm chart (nats 2.14.2, the version deploy/kubernetes/nats is written
// for) renders from a values file, for the values Warden's files set. Helm cannot run here, so this
// follows the chart's templates: files/config/config.yaml (the chart's own keys, from the values),
// then `config.merge` merged over them (Sprig's mergeOverwrite: maps deeply, anything else replaced),
// printed as JSON with keys sorted and "<< x >>" strings unquoted (nats.formatConfig).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './compose.fixture.js';

type SecretEnv = { valueFrom: { secretKeyRef: { name: string; key: string } } };

/** The part of the chart's values that Warden's values files set (the test checks there is no other). */
export interface ChartValues {
  config: {
    nats: { port: number };
    monitor: { enabled: boolean; port: number };
    cluster: { enabled: boolean; replicas?: number };
    jetstream: { enabled: boolean; fileStore: { dir: string } };
    merge: Record<string, unknown>;
  };
  container: { image: { tag: string }; env: Record<string, SecretEnv> };
  promExporter: { enabled: boolean; port: number };
  podTemplate: { merge: { metadata: { annotations: Record<string, string> } } };
  natsBox: { enabled: boolean };
}

/** The chart's defaults for what the values leave out (values.yaml of nats 2.14.2). */
const CHART = { clusterPort: 6222, noAdvertise: true, pvcSize: '10Gi' };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const isMap = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

function mergeOverwrite(target: Record<string, Json>, source: Record<string, Json>): Record<string, Json> {
  for (const [key, value] of Object.entries(source)) {
    target[key] = isMap(value) && isMap(target[key]) ? mergeOverwrite({ ...target[key] }, value) : value;
  }
  return target;
}

const sortKeys = (value: Json): Json =>
  Array.isArray(value) ? value.map(sortKeys) : isMap(value) ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k])])) : value;

/**
 * The configuration every pod of the chart's StatefulSet gets (its name comes from SERVER_NAME), for a
 * release named `release`: its StatefulSet is `release`, its headless Service `release-headless`.
 */
export function chartNatsConfig(values: ChartValues, release: string): string {
  const known = ['nats', 'monitor', 'cluster', 'jetstream', 'merge'];
  const unknown = Object.keys(values.config).filter((k) => !known.includes(k));
  if (unknown.length) throw new Error(`the chart emulation does not know config.${unknown.join(', config.')}: extend nats-chart.fixture.ts`);
  const c = values.config;
  const config: Record<string, Json> = {
    server_name: '<< $SERVER_NAME >>',
    lame_duck_grace_period: '10s',
    lame_duck_duration: '30s',
    pid_file: '/var/run/nats/nats.pid',
    port: c.nats.port,
  };
  if (c.cluster.enabled) {
    const replicas = c.cluster.replicas ?? 3;
    config.cluster = {
      name: release,
      port: CHART.clusterPort,
      no_advertise: CHART.noAdvertise,
      routes: Array.from({ length: replicas }, (_, i) => `nats://${release}-${i}.${release}-headless:${CHART.clusterPort}`),
    };
  }
  if (c.monitor.enabled) config.http_port = c.monitor.port;
  if (c.jetstream.enabled) config.jetstream = { max_memory_store: 0, store_dir: c.jetstream.fileStore.dir, max_file_store: `<< ${CHART.pvcSize} >>` };
  mergeOverwrite(config, c.merge as Record<string, Json>);
  return JSON.stringify(sortKeys(config), null, 2).replace(/"<<\s+(.*?)\s+>>"/g, '$1');
}

/** `nats-server -t` on a configuration, with only `env` (and PATH) in its environment. */
export function natsServerAccepts(natsServer: string, conf: string, env: Record<string, string>): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'warden-chart-'));
  try {
    const file = join(dir, 'nats.conf');
    writeFileSync(file, conf);
    const result = run(natsServer, ['-c', file, '-t'], { PATH: process.env.PATH, ...env });
    return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
