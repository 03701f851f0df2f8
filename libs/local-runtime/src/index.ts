export * from './free-port.js';
export * from './nats-server-process.js';
export * from './service-process.js';
export * from './embedded-postgres.js';
export * from './warden-nats-server.js';
