export { INPUT_TO_RUN_KEYS, redactForStorage, redactText, redactValue, totalRedactions, type Redaction } from './redact.js';
export { SECRET_KEY, SECRET_PATTERNS, type SecretPattern } from './secret-patterns.js';
