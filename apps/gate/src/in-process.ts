// What the suite's benchmark runs of the gate in its own process (test/bench/src/in-process/gate-benchmark.ts):
// the HITL relay with its stores and metrics, Nest-free, as the service builds it. Exported as
// @warden/gate-service/in-process for the benchmark only (eslint.config.mjs).
export { GateMetrics } from './core/gate-metrics.js';
export { GateStores } from './core/gate-stores.js';
export { HitlRelay, type RelayOptions } from './relay/hitl-relay.js';
