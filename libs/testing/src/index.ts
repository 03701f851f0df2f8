export { postgresBinDir } from './system-binaries.js';
export { type TestNatsOptions, TestNatsServer } from './nats-server.js';
export { TestPostgres } from './postgres.js';
export { BusRecorder, type RecordedMessage } from './bus-recorder.js';
export { type CapturedLogger, captureLogger } from './test-logger.js';
export { type InProcessService, startInProcess } from './service-app.js';
export { ContractHarness, type ContractSuiteOptions, describeServiceContract } from './contract-suite.js';
export { eventually, type EventuallyOptions } from './eventually.js';
export { operatorHeaders, operatorToken } from './operators.js';
