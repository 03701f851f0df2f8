/** What an action would do, in the step reviewer's words (seed 001), plus the finer kinds Warden tells apart. */
export type Intent =
  | 'file_read'
  | 'file_creation'
  | 'file_modification'
  | 'file_deletion'
  | 'system_command'
  | 'command_execution'
  | 'network_request'
  | 'package_install'
  | 'delegation'
  | 'external_tool'
  | 'message'
  | 'unknown';

/**
 * Base risk of each intent: the seed's values for deletion 0.8, system command 0.7, network 0.6,
 * modification 0.4, creation 0.3 and read 0.1. `command_execution` is a project command (tests, builds,
 * git commits) that changes nothing outside the project; `system_command` is everything else a shell runs.
 */
export const BASE_RISK: Record<Intent, number> = {
  file_deletion: 0.8,
  system_command: 0.7,
  package_install: 0.7,
  network_request: 0.6,
  file_modification: 0.4,
  external_tool: 0.4,
  unknown: 0.4,
  command_execution: 0.3,
  file_creation: 0.3,
  delegation: 0.2,
  file_read: 0.1,
  message: 0.1,
};
