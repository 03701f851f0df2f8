import { basename, parseShellCommand, type ShellSegment } from './shell-command.js';

/** What an action would do, as the step reviewer's parser names it (seed 001). */
export type Intent =
  | 'file_read'
  | 'file_creation'
  | 'file_modification'
  | 'file_deletion'
  | 'system_command'
  | 'network_request'
  | 'package_install'
  | 'delegation'
  | 'external_tool'
  | 'message'
  | 'unknown';

/** Base risk of each intent; the seed's values where it gives them. */
export const BASE_RISK: Record<Intent, number> = {
  file_deletion: 0.8,
  system_command: 0.7,
  package_install: 0.7,
  network_request: 0.6,
  file_modification: 0.4,
  external_tool: 0.4,
  unknown: 0.4,
  file_creation: 0.3,
  delegation: 0.2,
  file_read: 0.1,
  message: 0.1,
};

export interface ParsedAction {
  intent: Intent;
  tool: string;
  /** For shell commands: the command line as given, and its parsed segments. */
  command?: string;
  segments: ShellSegment[];
  /** File paths the action names (Write/Edit/Read targets, redirect targets). */
  paths: string[];
}

const READ_TOOLS = new Set(['Read', 'Glob', 'Grep', 'LS', 'NotebookRead', 'TodoRead', 'read_file', 'list_files', 'search']);
const SHELL_TOOLS = new Set(['Bash', 'shell', 'bash', 'run_command', 'execute_command']);
const CREATE_TOOLS = new Set(['Write', 'write_file', 'create_file']);
const MODIFY_TOOLS = new Set(['Edit', 'MultiEdit', 'NotebookEdit', 'edit_file', 'str_replace_editor']);
const NETWORK_TOOLS = new Set(['WebFetch', 'WebSearch', 'http', 'fetch']);
const DELETE_TOOLS = new Set(['Delete', 'delete_file']);
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'pip', 'pip3', 'apt', 'apt-get', 'brew', 'gem', 'cargo', 'go']);

function stringField(input: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) if (typeof input[name] === 'string') return input[name] as string;
  return undefined;
}

function isPackageInstall(segment: ShellSegment): boolean {
  const [cmd, sub] = segment.argv.map((a) => basename(a));
  return !!cmd && PACKAGE_MANAGERS.has(cmd) && ['install', 'add', 'i', 'get'].includes(sub ?? '');
}

/** Works out the intent of an action from its kind, tool and input. */
export function parseAction(kind: string, tool: string, input: Record<string, unknown>): ParsedAction {
  const path = stringField(input, 'file_path', 'path', 'notebook_path');
  const paths = path ? [path] : [];
  if (kind === 'message') return { intent: 'message', tool, segments: [], paths };
  const command = stringField(input, 'command', 'cmd', 'script');
  if (SHELL_TOOLS.has(tool) || kind === 'system_command' || (command !== undefined && !READ_TOOLS.has(tool))) {
    const segments = parseShellCommand(command ?? '');
    const redirected = segments.flatMap((s) => s.redirects.filter((r) => r.operator.includes('>')).map((r) => r.target));
    const intent: Intent = segments.some(isPackageInstall) ? 'package_install' : 'system_command';
    return { intent, tool, command: command ?? '', segments, paths: [...paths, ...redirected] };
  }
  if (tool === 'package_install') return { intent: 'package_install', tool, segments: [], paths };
  if (READ_TOOLS.has(tool)) return { intent: 'file_read', tool, segments: [], paths };
  if (CREATE_TOOLS.has(tool)) return { intent: 'file_creation', tool, segments: [], paths };
  if (MODIFY_TOOLS.has(tool)) return { intent: 'file_modification', tool, segments: [], paths };
  if (DELETE_TOOLS.has(tool)) return { intent: 'file_deletion', tool, segments: [], paths };
  if (NETWORK_TOOLS.has(tool)) return { intent: 'network_request', tool, segments: [], paths };
  if (tool === 'Task' || tool === 'Agent') return { intent: 'delegation', tool, segments: [], paths };
  if (tool.startsWith('mcp__')) return { intent: 'external_tool', tool, segments: [], paths };
  if (kind === 'file_operation') return { intent: 'file_modification', tool, segments: [], paths };
  return { intent: 'unknown', tool, segments: [], paths };
}
