export {
  runMain,
  runService,
  type RunServiceOptions,
  serviceInfrastructure,
  type ServiceStartOptions,
  serviceUrl,
  SHUTDOWN_TIMEOUT_MS,
  startService,
} from './service-bootstrap.js';
export {
  booleanFromEnv,
  ConfigurationError,
  integerFromEnv,
  loadServiceRuntime,
  SERVICE_PORTS,
  type ServiceRuntime,
} from './service-runtime.js';
