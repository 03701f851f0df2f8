import { GOAL_MAX_LENGTH } from '@warden/contracts';
import { RecordingError, type RecordedAction, type RecordedSession } from '../recorded-session.js';

interface TrajectoryStep {
  action?: unknown;
  observation?: unknown;
  thought?: unknown;
  execution_time?: unknown;
  state?: unknown;
}

interface Trajectory {
  trajectory?: TrajectoryStep[];
  history?: { role?: string; content?: unknown }[];
  info?: { model_stats?: { tokens_sent?: number; tokens_received?: number }; exit_status?: string };
  environment?: string;
}

const DEFAULT_CWD = '/testbed';
/** What SWE-agent's observations look like when the command failed (it records no exit codes). */
const FAILURE = /^(Traceback \(most recent call last\)|Error:|error:|bash: .*(command not found|No such file or directory)|.*: No such file or directory$|Your proposed edit has introduced new syntax error)/m;

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => (c && typeof c === 'object' && 'text' in c ? String((c as { text: unknown }).text) : '')).join('\n');
  return '';
}

function workingDir(state: unknown): string | undefined {
  let value = state;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  const dir = value && typeof value === 'object' ? (value as { working_dir?: unknown }).working_dir : undefined;
  return typeof dir === 'string' && dir ? dir : undefined;
}

/** What SWE-agent's own commands act on: the file it has open (its editor is stateful). */
interface EditorState {
  open?: string;
}

const unquote = (word: string | undefined) => word?.replace(/^["']|["']$/g, '');

/**
 * Maps one SWE-agent command to the tool call Warden reviews: its editor and search commands to the
 * tools they amount to (open/goto/scroll → Read of the open file, create → Write, edit N:M → Edit of the
 * open file, find_file → Glob, search_dir/search_file → Grep, submit → a message), anything else as Bash.
 * An edit is an edit of its file whatever it writes, so the same failing edit is seen as the same action.
 */
function toolCall(command: string, editor: EditorState): { tool: string; input: Record<string, unknown>; kind?: 'message' } {
  const words = command.split(/\s+/);
  const [head, first, second] = [words[0], unquote(words[1]), unquote(words[2])];
  if (head === 'str_replace_editor' && first === 'view' && second) return { tool: 'Read', input: { file_path: second } };
  if (head === 'str_replace_editor' && first === 'create' && second) {
    const content = /--file_text\s+(['"]?)([\s\S]*)\1\s*$/.exec(command)?.[2] ?? '';
    return { tool: 'Write', input: { file_path: second, content } };
  }
  if (head === 'str_replace_editor' && (first === 'str_replace' || first === 'insert') && second) return { tool: 'Edit', input: { file_path: second, swe_agent_command: command.slice(0, 4000) } };
  if (head === 'open' && first) {
    editor.open = first;
    return { tool: 'Read', input: { file_path: first, ...(second ? { line: second } : {}) } };
  }
  if ((head === 'goto' || head === 'scroll_up' || head === 'scroll_down') && editor.open) return { tool: 'Read', input: { file_path: editor.open, ...(first ? { line: first } : {}) } };
  if (head === 'create' && first) {
    editor.open = first;
    return { tool: 'Write', input: { file_path: first, content: '' } };
  }
  if (head === 'edit' && editor.open && /^\d+:\d+$/.test(first ?? '')) {
    const body = command.slice(command.indexOf('\n') + 1).replace(/\n?end_of_edit\s*$/, '');
    return { tool: 'Edit', input: { file_path: editor.open, lines: first, new_string: body } };
  }
  if (head === 'find_file' && first) return { tool: 'Glob', input: { pattern: `**/${first}`, ...(second ? { path: second } : {}) } };
  if (head === 'search_dir' && first) return { tool: 'Grep', input: { pattern: first, ...(second ? { path: second } : {}) } };
  if (head === 'search_file' && first) return { tool: 'Grep', input: { pattern: first, path: second ?? editor.open ?? '.' } };
  if (head === 'submit') return { tool: 'submit', input: { message: command.slice(0, 4000) }, kind: 'message' };
  return { tool: 'Bash', input: { command } };
}

/** True for a SWE-agent trajectory: a JSON document with a `trajectory` list. */
export const looksLikeSweAgentTrajectory = (doc: unknown): boolean => !!doc && typeof doc === 'object' && Array.isArray((doc as Trajectory).trajectory);

/**
 * A SWE-agent trajectory (`*.traj`, JSON): `trajectory` is the list of steps, each with the `action`
 * (the command the agent ran), its `observation`, `thought`, `execution_time` (seconds) and `state`
 * (working_dir); `history` holds the conversation, whose first user message is the task. SWE-agent
 * records no exit codes: an observation that reads like an error (traceback, "command not found", …)
 * counts as a failed action.
 */
export function parseSweAgentTrajectory(textContent: string, name = 'swe-agent'): RecordedSession {
  let traj: Trajectory;
  try {
    traj = JSON.parse(textContent) as Trajectory;
  } catch (error) {
    throw new RecordingError(`not JSON (${(error as Error).message})`);
  }
  if (!traj || !Array.isArray(traj.trajectory)) throw new RecordingError('a SWE-agent trajectory needs a "trajectory" list');
  const actions: RecordedAction[] = [];
  const editor: EditorState = {};
  let cwd: string | undefined;
  traj.trajectory.forEach((step, index) => {
    cwd ??= workingDir(step.state);
    const command = typeof step.action === 'string' ? step.action.trim() : '';
    if (!command) return;
    const observation = text(step.observation);
    const failed = FAILURE.test(observation);
    const seconds = typeof step.execution_time === 'number' ? step.execution_time : undefined;
    const { kind, ...call } = toolCall(command, editor);
    const thought = text(step.thought).trim();
    actions.push({
      actionId: `step-${index + 1}`,
      ...call,
      kind: kind ?? 'tool_use',
      ...(kind === 'message' ? { title: `${call.tool} (SWE-agent ends its run)` } : {}),
      ...(thought ? { description: thought.slice(0, 4000) } : {}),
      outcome: {
        status: failed ? 'error' : 'success',
        ...(failed ? { error: { message: observation.slice(0, 8000) } } : observation ? { output: observation.slice(0, 4000) } : {}),
        ...(seconds !== undefined ? { durationMs: Math.round(seconds * 1000) } : {}),
      },
    });
  });
  const task = traj.history?.find((m) => m.role === 'user');
  const goal = task ? text(task.content).trim().slice(0, GOAL_MAX_LENGTH) : undefined;
  const dir = cwd ?? DEFAULT_CWD;
  return {
    format: 'swe-agent',
    sessionId: name,
    declaration: { context: { cwd: dir, expected_paths: [`${dir.replace(/\/+$/, '')}/**`], ...(goal ? { goal } : {}) }, agent_kind: 'swe-agent' },
    actions,
    ...(!actions.length ? { empty: `a SWE-agent trajectory of ${traj.trajectory.length} steps without a command` } : {}),
  };
}
