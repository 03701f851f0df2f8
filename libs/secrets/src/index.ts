export { countRedactions, INPUT_TO_RUN_KEYS, redactForStorage, redactText, redactValue, totalRedactions, undoRedaction, type Redaction, type TextUndo, type ValueUndo } from './redact.js';
export { newSealKeys, openSealed, publicHalfOf, seal, SealError, sealSecrets, unseal, type SealedRedaction, type SealKeys } from './sealed-secrets.js';
export { SECRET_KEY, SECRET_PATTERNS, type SecretPattern } from './secret-patterns.js';
