// What the services and the command line use of this library.
export { resolvePatternSettings } from './detector-settings-file.js';
export { type PatternSettings } from './detector-settings.js';
// SessionPatterns is opened with the project knowledge files its sessions are matched against.
export { type ProjectKnowledge } from '@warden/project-knowledge';
export { type PatternReport, priceOf, SessionPatterns } from './session-patterns.js';
export { type SessionSnapshot } from './session-state.js';
