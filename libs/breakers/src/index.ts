// What the services and the command line use of this library.
export { resolveBreakerSettings } from './breaker-settings-file.js';
export { type BreakerSettings } from './breaker-settings.js';
export { priceCall } from './cost-measure.js';
export { RollingDay, type RollingDaySnapshot } from './rolling-day.js';
export { throttleOf, type ThrottleLimits } from './throttle-limits.js';
export { type BreakerEvent, SessionBreakers, type SessionLedger } from './session-breakers.js';
export { USAGE_SOURCE_RANK, type UsageReading } from './usage-accounting.js';
