// What the services' Nest modules and bootstrap use of this library.
export { HealthController } from './health.controller.js';
export { MetricsController } from './metrics.controller.js';
export { PinoNestLogger } from './nest-logger.js';
export { ObservabilityModule, type ObservabilityOptions } from './observability.module.js';
