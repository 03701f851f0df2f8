export { isCheckCommand } from './check-command.js';
export { actionSignature, actionTarget, digest, failureSignature, foldedDigest, fingerprint, foldErrorText } from './action-signature.js';
