// One reading of a proposed action, for the reviewer and the pattern detector alike.
export { commandLine } from './command-line.js';
export {
  CREDENTIAL_DIRECTORY_TEXT,
  CREDENTIAL_STORE_TEXT,
  CREDENTIAL_STORES,
  credentialStoreExamples,
  DOT_DIRECTORY_LOGIN_FILE,
  isCredentialStorePath,
  mayNameCredentialStore,
  type CredentialStore,
} from './credential-stores.js';
export { compileGlob, globMatcher, type CompiledGlob, type GlobOptions } from './glob-match.js';
export { mcpTool, type McpTool } from './mcp.js';
export { PATCH_FIELDS, type FileChange } from './patch.js';
export { pathMatcher, type PathMatcher } from './path-matcher.js';
export {
  baseName,
  foldPathSegments,
  homeOf,
  inTempDirectory,
  isApiRoute,
  isHomeRoot,
  isRelativePath,
  isStreamPath,
  isTempPath,
  isUnder,
  isWindowsPath,
  mountedHome,
  orThroughMount,
  pathsNamedIn,
  resolvePath,
  throughMount,
  tildeForm,
} from './paths.js';
export { remoteCommand, remoteShellText, shellQuote, type RemoteCommand } from './remote-command.js';
export { isFileOfHome, scopeIsHome, workRootOf, worktreesAddedIn } from './work-roots.js';
export { sweAgentCommand, type SweAgentCommand } from './swe-agent.js';
export { ACTION_FIELDS, commandOf, firstPath, readToolCall, urlsIn, withCommandLine, type ToolCall } from './tool-call.js';
export { listsNames, toolShape, type ToolKind } from './vocabulary.js';
