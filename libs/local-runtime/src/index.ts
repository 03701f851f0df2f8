export { BACKGROUND_NICENESS, type CpuPriority, cpuPriorityOf } from './cpu-priority.js';
export { freePort, waitUntil } from './free-port.js';
export { natsServerBinary, NatsServerProcess, type NatsServerProcessOptions, portAccepts } from './nats-server-process.js';
export { NodeOptionsError, nodeOptionsOf } from './node-options.js';
export { ServiceProcess, type ServiceProcessOptions, WORKSPACE_ROOT } from './service-process.js';
export { EmbeddedPostgres } from './embedded-postgres.js';
export { AGENT_HASH_COST, WardenNatsServer, type WardenNatsServerOptions } from './warden-nats-server.js';
export { spawnTied } from './tied-spawn.js';
