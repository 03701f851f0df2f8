export * from './warden-client.js';
export * from './agent-session.js';
export * from './decision.js';
export * from './errors.js';
export * from './checkpoint-store.js';
