#!/usr/bin/env node
// Writes deploy/nats/warden.conf and deploy/nats/cluster/node-*.conf from deploy/nats/params.json, so
// that the committed configurations are always renderNatsServerConfig's output and never hand-edited;
// and the NATS Helm chart's values files of deploy/kubernetes/nats (renderNatsHelmValues, the function
// behind `warden nats-config --format helm-values`) from the same parameters.
// The messaging library must be built first:
//   NX_DAEMON=false NX_NO_CLOUD=true npx nx run messaging:build && node deploy/render-nats-configs.mjs
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const deployDir = dirname(fileURLToPath(import.meta.url));
const natsDir = join(deployDir, 'nats');
const messagingDist = join(deployDir, '..', 'libs', 'messaging', 'dist', 'index.js');

if (!existsSync(messagingDist)) {
  console.error('libs/messaging is not built: run `NX_DAEMON=false NX_NO_CLOUD=true npx nx run messaging:build` first.');
  process.exit(1);
}
const { renderNatsHelmValues, renderNatsServerConfig } = await import(messagingDist);
const params = JSON.parse(readFileSync(join(natsDir, 'params.json'), 'utf8'));

const outputs = [
  { file: params.single.file, options: params.server },
  ...params.cluster.nodes.map((node) => ({
    file: node.file,
    options: {
      ...params.server,
      serverName: node.serverName,
      cluster: { name: params.cluster.name, port: params.cluster.port, routes: node.routes },
    },
  })),
];

const { partitions, port, monitorPort, storeDir, service, operators, agents } = params.server;
const rendered = [
  ...outputs.map(({ file, options }) => ({ file, text: renderNatsServerConfig(options) })),
  ...params.helm.values.map(({ file, clusterReplicas }) => ({
    file,
    text: renderNatsHelmValues({ partitions, port, monitorPort, storeDir, service, operators, agents, clusterReplicas, passwordSecret: params.helm.passwordSecret }),
  })),
];

for (const { file, text } of rendered) {
  const path = join(natsDir, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  console.log(`wrote ${relative(join(deployDir, '..'), path)}`);
}
