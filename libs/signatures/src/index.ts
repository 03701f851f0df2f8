export { isCheckCommand } from './check-command.js';
export { actionSignature, actionTarget, digest, failureSignature, fingerprint, foldErrorText } from './action-signature.js';
