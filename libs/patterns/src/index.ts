// What the services and the command line use of this library.
export { resolvePatternSettings } from './detector-settings-file.js';
export { type PatternSettings } from './detector-settings.js';
export { loadProjectKnowledge, type ProjectKnowledge } from './project-knowledge.js';
export { eventTime, type PatternReport, priceOf, SessionPatterns } from './session-patterns.js';
export { type SessionSnapshot } from './session-state.js';
