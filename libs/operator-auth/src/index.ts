export {
  isOperatorId,
  isOperatorRole,
  leastRoleFor,
  OPERATOR_ROLES,
  type OperatorRole,
  type Permission,
  PERMISSIONS,
  roleAllows,
} from './roles.js';
export {
  API_TOKEN_PREFIX,
  generatePassword,
  hashPassword,
  looksLikeToken,
  newApiToken,
  newSessionToken,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordProblem,
  SCRYPT_PARAMS,
  SESSION_TOKEN_PREFIX,
  tokenDigest,
  verifyPassword,
} from './secrets.js';
export {
  AUTH_FAILURES,
  type AuthFailure,
  cookieValue,
  operatorHeaderProblem,
  presentedCredential,
  type PresentedCredential,
  type RequestHeaders,
} from './credentials.js';
export { CSRF_HEADER, csrfTokenFor, csrfTokenMatches, SAFE_METHODS, sameOrigin } from './csrf.js';
export { LoginThrottle } from './login-throttle.js';
export { type Operator, OperatorStore, OperatorStoreError, type OperatorSummary, type TokenCheck } from './operator-store.js';
export {
  type Authenticated,
  OPERATOR_AUTH_OPTIONS,
  OperatorAuthenticator,
  type OperatorAuthOptions,
  type Refused,
} from './nest/operator-authenticator.js';
export { authenticationOf, OperatorAuthGuard, operatorOf, Requires } from './nest/operator-auth.guard.js';
export { OperatorAuthModule } from './nest/operator-auth.module.js';
export { boundedNesting, credentialsBeforeBody, MAX_BODY_NESTING, nestingRefused } from './nest/body-guards.js';
