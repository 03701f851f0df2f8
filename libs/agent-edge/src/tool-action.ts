import type { ActionKind } from '@warden/contracts';

/** A Claude Code tool call as Warden sees it: the tool and its input unchanged, plus a kind and a description. */
export interface ToolAction {
  tool: string;
  input: Record<string, unknown>;
  kind: ActionKind;
  description?: string;
  /** The subagent that runs it, when one does (Claude Code's agent_id / agent_type). */
  subagent?: { id?: string; type?: string };
}

/**
 * Maps a Claude Code tool call (Bash, Write, Edit, Read, Glob, Grep, WebFetch, WebSearch, Task/Agent,
 * mcp__<server>__<tool>) to a proposed action. The input is passed on exactly as the agent would run
 * it: the reviewer knows Claude Code's tool names and fields, and `updatedInput` must fit the tool.
 */
export function toolAction(tool: string, input: Record<string, unknown>, subagent?: { id?: string; type?: string }): ToolAction {
  const described = typeof input.description === 'string' && input.description ? input.description : undefined;
  const by = subagent?.type || subagent?.id ? `subagent ${subagent.type ?? 'unknown'}${subagent.id ? ` (${subagent.id})` : ''}` : undefined;
  const description = [described, by ? `run by ${by}` : undefined].filter(Boolean).join('; ');
  const runBy = subagent && (subagent.id || subagent.type) ? { subagent: { ...(subagent.id ? { id: subagent.id } : {}), ...(subagent.type ? { type: subagent.type } : {}) } } : {};
  return { tool, input, kind: 'tool_use', ...(description ? { description: description.slice(0, 4000) } : {}), ...runBy };
}

/** Files a tool call writes, for the outcome's files_touched. */
export function filesTouched(tool: string, input: Record<string, unknown>): string[] | undefined {
  if (!['Write', 'Edit', 'MultiEdit', 'NotebookEdit'].includes(tool)) return undefined;
  const path = input.file_path ?? input.notebook_path;
  return typeof path === 'string' ? [path] : undefined;
}

/** One line for people: the command, the path, the URL or query of a tool call. */
export function actionSummary(tool: string, input: Record<string, unknown>): string {
  for (const field of ['command', 'file_path', 'notebook_path', 'path', 'pattern', 'url', 'query', 'prompt']) {
    const value = input[field];
    if (typeof value === 'string' && value) return `${tool}: ${value.replace(/\s+/g, ' ').slice(0, 100)}`;
  }
  const json = JSON.stringify(input);
  return `${tool} ${json.length > 100 ? `${json.slice(0, 97)}...` : json}`;
}

/** A bounded excerpt of a tool's response (string, content blocks or any JSON). */
export function outputExcerpt(response: unknown, max = 4000): string | undefined {
  if (response === undefined || response === null) return undefined;
  let text: string;
  if (typeof response === 'string') text = response;
  else if (Array.isArray(response)) {
    text = response.map((block) => (block && typeof block === 'object' && typeof (block as { text?: unknown }).text === 'string' ? (block as { text: string }).text : JSON.stringify(block))).join('\n');
  } else text = JSON.stringify(response);
  return text ? text.slice(0, max) : undefined;
}

/**
 * The failure a tool reported in a response its call returned normally: a structured tool (an MCP
 * server's, Claude Code's team tools) that answers `{"success": false, "message": "…"}` did not do what
 * it was asked, and an agent that calls it again and again is retrying a failure. A command is left to
 * its exit status: one that prints an API's JSON answer ran.
 */
export function reportedFailure(input: Record<string, unknown>, response: unknown): string | undefined {
  if (typeof input.command === 'string') return undefined;
  const answer = structuredAnswer(response);
  if (!answer || answer.success !== false) return undefined;
  const why = [answer.message, answer.error].find((v): v is string => typeof v === 'string' && v.trim() !== '');
  return (why ?? JSON.stringify(answer)).slice(0, 8000);
}

/** A response that is one JSON object: as sent, or as the text of its only content block. */
function structuredAnswer(response: unknown): Record<string, unknown> | undefined {
  let value = response;
  if (Array.isArray(value) && value.length === 1) value = (value[0] as { text?: unknown } | null)?.text;
  if (typeof value === 'string') {
    const text = value.trim();
    if (!text.startsWith('{') || !text.endsWith('}') || text.length > 100_000) return undefined;
    try {
      value = JSON.parse(text);
    } catch {
      return undefined;
    }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
