// What the suite's benchmark runs of the gateway in its own process (test/bench/src/telemetry-receiver.ts):
// the telemetry receiver's work on an export before it publishes, Nest-free, as the service does it.
// Exported as @warden/gateway/in-process for the benchmark only (eslint.config.mjs).
export { usageMessages } from './usage-messages.js';
