/** Injection token of the service's pino logger (provided by @warden/observability-nest's ObservabilityModule). */
export const LOGGER = Symbol('warden.logger');
