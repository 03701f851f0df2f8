import { ADMIN_CLI_RULES } from './admin-cli-rules.js';
import { databaseDestructionRule } from './database-rules.js';
import { httpDeletionRule } from './http-api-rules.js';
import { remoteSystemCopyRule } from './remote-copy-rules.js';
import { remoteDeletionRule, remoteShutdownRule } from './remote-host-rules.js';
import { networkShellRule, reverseShellRule, unparseableCommandRule, unreadableCodeRule } from './shell-integrity-rules.js';
import { downloadAndRunRule, obfuscatedExecutionRule, persistenceInstallRule, persistentEnvironmentRule } from './execution-rules.js';
import { containerDataDestructionRule, containerHostAccessRule, massProcessKillRule, packagePublishRule, remoteShellRule, systemShutdownRule } from './operations-rules.js';
import { credentialExposureRule } from './credential-exposure-rules.js';
import { readOutsideProjectRule, secretFileReadRule, writeOutsideProjectRule } from './scope-rules.js';
import { assertionRewriteRule, ciCheckBypassRule, hookTamperingRule, testBypassRule } from './test-integrity-rules.js';
import { ciLogExposureRule } from './ci-log-rules.js';
import { tlsVerificationRule } from './trust-rules.js';
import { productionDeployRule } from './deployment-rules.js';
import { deletionOutsideProjectRule, limitFileOperationsRule, preventRecursiveDeletionRule, recursiveDeletionRule } from './file-operation-rules.js';
import { forcePushRule, historyDestructionRule, hookBypassRule, secretCommitRule, secretPushRule } from './git-rules.js';
import { warnExternalNetworkRule } from './network-rules.js';
import { worldWritablePermissionsRule, worldWritableSystemRule } from './permission-rules.js';
import type { ReviewRule } from './review-rule.js';
import { HARM_RULES } from './harm-rules.js';
import { supervisionTamperingRule } from './supervision-rules.js';
import { secretExfiltrationRule, secretFileWriteRule, secretsInArgumentsRule } from './secret-rules.js';
import {
  destructiveRootDeletionRule,
  diskDestructionRule,
  forkBombRule,
  privilegedCommandRule,
  remoteScriptExecutionRule,
  systemPackageChangeRule,
} from './system-protection-rules.js';

/** The reviewer's own rules; the essential ones (never allowed) first. */
export const BUILT_IN_RULES: ReviewRule[] = [
  supervisionTamperingRule,
  destructiveRootDeletionRule,
  diskDestructionRule,
  forkBombRule,
  remoteScriptExecutionRule,
  worldWritableSystemRule,
  preventRecursiveDeletionRule,
  secretExfiltrationRule,
  obfuscatedExecutionRule,
  downloadAndRunRule,
  reverseShellRule,
  networkShellRule,
  systemShutdownRule,
  limitFileOperationsRule,
  deletionOutsideProjectRule,
  productionDeployRule,
  databaseDestructionRule,
  ...ADMIN_CLI_RULES,
  ...HARM_RULES,
  httpDeletionRule,
  containerHostAccessRule,
  remoteSystemCopyRule,
  containerDataDestructionRule,
  packagePublishRule,
  writeOutsideProjectRule,
  secretFileReadRule,
  credentialExposureRule,
  persistenceInstallRule,
  persistentEnvironmentRule,
  massProcessKillRule,
  systemPackageChangeRule,
  remoteShellRule,
  remoteShutdownRule,
  remoteDeletionRule,
  testBypassRule,
  assertionRewriteRule,
  hookTamperingRule,
  ciCheckBypassRule,
  tlsVerificationRule,
  historyDestructionRule,
  forcePushRule,
  hookBypassRule,
  secretCommitRule,
  secretPushRule,
  worldWritablePermissionsRule,
  recursiveDeletionRule,
  privilegedCommandRule,
  secretsInArgumentsRule,
  secretFileWriteRule,
  ciLogExposureRule,
  warnExternalNetworkRule,
  readOutsideProjectRule,
  unparseableCommandRule,
  unreadableCodeRule,
];
