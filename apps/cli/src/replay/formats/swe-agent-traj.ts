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

/** Maps one SWE-agent command to the tool call Warden reviews: file views and creations as Read / Write, the rest as Bash. */
function toolCall(command: string): { tool: string; input: Record<string, unknown> } {
  const words = command.split(/\s+/);
  if (words[0] === 'str_replace_editor' && words[1] === 'view' && words[2]) return { tool: 'Read', input: { file_path: words[2] } };
  if (words[0] === 'open' && words[1]) return { tool: 'Read', input: { file_path: words[1].replace(/^"|"$/g, '') } };
  if (words[0] === 'str_replace_editor' && words[1] === 'create' && words[2]) {
    const content = /--file_text\s+(['"]?)([\s\S]*)\1\s*$/.exec(command)?.[2] ?? '';
    return { tool: 'Write', input: { file_path: words[2], content } };
  }
  return { tool: 'Bash', input: { command } };
}

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
  let cwd: string | undefined;
  traj.trajectory.forEach((step, index) => {
    cwd ??= workingDir(step.state);
    const command = typeof step.action === 'string' ? step.action.trim() : '';
    if (!command) return;
    const observation = text(step.observation);
    const failed = FAILURE.test(observation);
    const seconds = typeof step.execution_time === 'number' ? step.execution_time : undefined;
    const call = toolCall(command);
    const thought = text(step.thought).trim();
    actions.push({
      actionId: `step-${index + 1}`,
      ...call,
      kind: 'tool_use',
      ...(thought ? { description: thought.slice(0, 4000) } : {}),
      outcome: {
        status: failed ? 'error' : 'success',
        ...(failed ? { error: { message: observation.slice(0, 8000) } } : observation ? { output: observation.slice(0, 4000) } : {}),
        ...(seconds !== undefined ? { durationMs: Math.round(seconds * 1000) } : {}),
      },
    });
  });
  const task = traj.history?.find((m) => m.role === 'user');
  const goal = task ? text(task.content).trim().slice(0, 4000) : undefined;
  const dir = cwd ?? DEFAULT_CWD;
  return {
    format: 'swe-agent',
    sessionId: name,
    declaration: { context: { cwd: dir, expected_paths: [`${dir.replace(/\/+$/, '')}/**`], ...(goal ? { goal } : {}) }, agent_kind: 'swe-agent' },
    actions,
  };
}
