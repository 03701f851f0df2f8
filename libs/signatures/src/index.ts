export { isCheckCommand } from './check-command.js';
export { actionSignature, actionTarget, failureSignature, fingerprint, foldErrorText } from './action-signature.js';
