export * from './system-binaries.js';
export * from './nats-server.js';
export * from './postgres.js';
export * from './bus-recorder.js';
export * from './test-logger.js';
export * from './service-app.js';
export * from './contract-suite.js';
export * from './eventually.js';
