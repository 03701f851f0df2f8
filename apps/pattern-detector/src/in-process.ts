// What the suite's benchmark runs of the pattern detector in its own process
// (test/bench/src/in-process/pattern-benchmark.ts): the sessions as the service holds them, Nest-free.
// Exported as @warden/pattern-detector/in-process for the benchmark only (eslint.config.mjs).
export { PatternSessions, type PatternSessionsOptions } from './patterns/pattern-sessions.js';
