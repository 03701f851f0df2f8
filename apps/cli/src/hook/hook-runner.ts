import { derivedMessageId } from '@warden/contracts';
import { WardenClient, type AgentSession, type ControlMessage } from '@warden/sdk';
import { readControlBacklog } from './control-backlog.js';
import {
  controlText,
  failOpenAnswer,
  postToolUseAnswer,
  preToolUseAnswer,
  stopReasonOf,
  stoppedAnswer,
  type ControlGuidance,
  type HookOutput,
} from './hook-answer.js';
import { HookInputError, parseHookInput, type HookInput, type SessionEndInput } from './hook-input.js';
import { HookSettingsError, loadHookSettings, type HookSettings } from './hook-settings.js';
import { SessionStateFile, type HookSessionState } from './session-state.js';
import { claudeSessionDeclaration } from './session-declaration.js';
import { filesTouched, outputExcerpt, toolAction } from './tool-action.js';

/** What one hook run prints and how it exits (Claude Code: 0 = read stdout, 2 = block with stderr). */
export interface HookResult {
  code: number;
  stdout: string;
  stderr: string;
}

const answer = (output: HookOutput | null): HookResult => ({ code: 0, stdout: output ? `${JSON.stringify(output)}\n` : '', stderr: '' });

/** Exit 2 blocks the tool call and shows stderr to Claude: what the adapter does when Warden cannot decide. */
const failClosed = (why: string): HookResult => ({ code: 2, stdout: '', stderr: `Warden could not decide on this tool call, so it is blocked (fail closed): ${why}\n` });

class Unreachable extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return withDeadline(promise, ms, `${what} took longer than ${ms} ms`);
}

function withDeadline<T>(promise: Promise<T>, ms: number, why: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Unreachable(why)), ms);
    timer.unref();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: Error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * One run of `warden hook`: reads Claude Code's hook payload, proposes the tool call to Warden (or
 * reports its outcome), and answers in Claude Code's format. Never throws: every path ends in a result.
 */
export async function runHook(stdin: string, env: NodeJS.ProcessEnv = process.env): Promise<HookResult> {
  let parsed: HookInput | SessionEndInput;
  try {
    parsed = parseHookInput(stdin);
  } catch (error) {
    if (error instanceof HookInputError) return failClosed(`the hook input is not a Claude Code tool hook payload: ${error.message}`);
    throw error;
  }
  if (parsed.hook_event_name === 'SessionEnd') return endSession(parsed, env);
  const input = parsed;
  const pre = input.hook_event_name === 'PreToolUse';
  let settings: HookSettings;
  try {
    settings = loadHookSettings(env.CLAUDE_PROJECT_DIR || input.cwd, env);
  } catch (error) {
    if (!(error instanceof HookSettingsError)) throw error;
    return pre ? failClosed(`the hook configuration is wrong: ${error.message}`) : { code: 1, stdout: '', stderr: `warden hook: ${error.message}\n` };
  }
  const started = Date.now();
  const remaining = () => Math.max(1, settings.deadlineMs - (Date.now() - started));
  const couldNotDecide = (why: string, guidance: ControlGuidance = { context: [] }): HookResult => {
    if (!pre) return { code: 1, stdout: '', stderr: `warden hook: the outcome of ${input.tool_name} (${input.tool_use_id}) was not reported to Warden: ${why}\n` };
    const failOpen = settings.failOpenTools.includes(input.tool_name) || settings.failOpenTools.includes('*');
    return failOpen ? answer(failOpenAnswer(input.tool_name, why, guidance)) : failClosed(why);
  };

  let client: WardenClient;
  try {
    client = await connectClient(settings, remaining);
  } catch (error) {
    return couldNotDecide(`cannot reach Warden at ${settings.servers}: ${(error as Error).message}`);
  }
  try {
    return await withDeadline(handle(client, input, settings, remaining, couldNotDecide), remaining(), `no decision within ${settings.deadlineMs} ms (the hook's deadline)`);
  } catch (error) {
    return couldNotDecide((error as Error).message);
  } finally {
    await client.close().catch(() => undefined);
  }
}

function connectClient(settings: HookSettings, remaining: () => number): Promise<WardenClient> {
  return withTimeout(
    WardenClient.connect({ servers: settings.servers, agentId: settings.agentId, password: settings.password, decisionTimeoutMs: settings.deadlineMs, applyControl: false, name: `warden-hook-${settings.agentId}` }),
    Math.min(settings.connectTimeoutMs, remaining()),
    'connecting to NATS',
  );
}

/**
 * SessionEnd: the run is over, and its end (session.ended) goes to the agent's track record on the
 * automation ladder. Claude Code does not say whether the task succeeded: a session that ends while
 * Warden has it stopped counts as `aborted`, any other as `success`. A session that never made a tool
 * call was never declared and is not a run. Claude Code cannot be held here: the answer is always empty.
 */
async function endSession(input: SessionEndInput, env: NodeJS.ProcessEnv): Promise<HookResult> {
  const notRecorded = (why: string): HookResult => ({ code: 1, stdout: '', stderr: `warden hook: the end of session ${input.session_id} was not recorded in Warden: ${why}\n` });
  let settings: HookSettings;
  try {
    settings = loadHookSettings(env.CLAUDE_PROJECT_DIR || input.cwd, env);
  } catch (error) {
    if (!(error instanceof HookSettingsError)) throw error;
    return notRecorded(`the hook configuration is wrong: ${error.message}`);
  }
  const stateFile = new SessionStateFile(settings.stateDir, settings.agentId, input.session_id);
  if (!stateFile.read().declared) return answer(null);
  const started = Date.now();
  const remaining = () => Math.max(1, settings.deadlineMs - (Date.now() - started));
  let client: WardenClient;
  try {
    client = await connectClient(settings, remaining);
  } catch (error) {
    return notRecorded(`cannot reach Warden at ${settings.servers}: ${(error as Error).message}`);
  }
  try {
    await withDeadline(recordEnd(client, input, settings, stateFile, remaining), remaining(), `not done within ${settings.deadlineMs} ms (the hook's deadline)`);
    return answer(null);
  } catch (error) {
    return notRecorded((error as Error).message);
  } finally {
    await client.close().catch(() => undefined);
  }
}

async function recordEnd(client: WardenClient, input: SessionEndInput, settings: HookSettings, stateFile: SessionStateFile, remaining: () => number): Promise<void> {
  const session = client.session(input.session_id);
  const end = await withState(stateFile, remaining, async (state) => {
    // A stop sent after the last tool call still counts: read what was stored since.
    const backlog = await readControlBacklog(client.nc, settings.agentId, input.session_id, state.controlSequence, Math.min(settings.controlReadMs, remaining()));
    let stopped = state.stopped;
    const stops: ControlMessage[] = [];
    for (const { message } of backlog.controls) {
      if (message.payload.kind === 'emergency_stop') {
        stopped = stopReasonOf(message);
        stops.push(message);
      } else if (message.payload.kind === 'resume') {
        stopped = undefined;
      }
    }
    state.endedRuns = (state.endedRuns ?? 0) + 1;
    return { stopped, stops, run: state.endedRuns };
  });
  // The session is over, so a stop it had not seen yet is carried out: confirm it as stopped.
  for (const stop of end.stops) if (stop.payload.requires_ack) await session.acknowledge(stop, 'stopped');
  const summary = end.stopped
    ? `Claude Code session ended (${input.reason}) while Warden had it stopped: ${end.stopped}`
    : `Claude Code session ended (${input.reason})`;
  await client.publish(
    client.message('session.ended', input.session_id, {
      id: derivedMessageId('session.ended', `${settings.agentId}:${input.session_id}:${end.run}`),
      payload: { status: end.stopped ? 'aborted' : 'success', summary: summary.slice(0, 4000) },
    }),
    Math.min(5_000, remaining()),
  );
}

async function handle(
  client: WardenClient,
  input: HookInput,
  settings: HookSettings,
  remaining: () => number,
  couldNotDecide: (why: string, guidance?: ControlGuidance) => HookResult,
): Promise<HookResult> {
  const session = client.session(input.session_id);
  const live: ControlMessage[] = [];
  session.onControl((control) => live.push(control));
  const stateFile = new SessionStateFile(settings.stateDir, settings.agentId, input.session_id);

  // Declare the session and collect the control messages stored since the previous run, under the lock.
  const guidance = await withState(stateFile, remaining, async (state) => {
    if (!state.declared) {
      const declaration = claudeSessionDeclaration({ cwd: input.cwd, transcriptPath: input.transcript_path, settings });
      await client.publish(
        client.message('session.started', input.session_id, {
          id: derivedMessageId('session.started', `${settings.agentId}:${input.session_id}`),
          payload: declaration,
        }),
        Math.min(5_000, remaining()),
      );
      state.declared = true;
    }
    const backlog = await readControlBacklog(client.nc, settings.agentId, input.session_id, state.controlSequence, Math.min(settings.controlReadMs, remaining()));
    state.controlSequence = backlog.lastSequence;
    const absorbed = absorb(state, backlog.controls.map((c) => c.message));
    if (backlog.unavailable) absorbed.note = `warden hook: control messages stored for session ${input.session_id} could not be read (${backlog.unavailable}); only those sent during this call are shown\n`;
    return absorbed;
  });
  const noted = (result: HookResult): HookResult => (guidance.note && result.code === 0 ? { ...result, stderr: result.stderr + guidance.note } : result);
  await acknowledge(session, guidance.delivered);

  if (input.hook_event_name !== 'PreToolUse') {
    const action = toolAction(input.tool_name, input.tool_input);
    const failed = input.hook_event_name === 'PostToolUseFailure';
    await session.report({
      actionId: input.tool_use_id,
      tool: action.tool,
      status: failed ? 'error' : 'success',
      ...(failed ? { error: { message: (input.error ?? 'the tool failed').slice(0, 8000) } } : {}),
      ...(input.duration_ms !== undefined ? { durationMs: input.duration_ms } : {}),
      ...(filesTouched(action.tool, action.input) ? { filesTouched: filesTouched(action.tool, action.input) } : {}),
      ...(!failed && outputExcerpt(input.tool_response) ? { outputExcerpt: outputExcerpt(input.tool_response) } : {}),
    });
    const after = await absorbLive(stateFile, remaining, live, session);
    return noted(answer(postToolUseAnswer(input.hook_event_name, merge(guidance.guidance, after))));
  }

  if (guidance.stopped) return noted(answer(stoppedAnswer(guidance.stopped, guidance.guidance)));
  const action = toolAction(input.tool_name, input.tool_input, { id: input.agent_id, type: input.agent_type });
  const decision = await session.propose(
    { tool: action.tool, input: action.input, kind: action.kind, actionId: input.tool_use_id, ...(action.description ? { description: action.description } : {}) },
    // The run's own deadline ends the wait (see runHook); the SDK's timer is only a backstop.
    { timeoutMs: remaining() + 1_000 },
  );
  const after = await absorbLive(stateFile, remaining, live, session);
  const all = merge(guidance.guidance, after);
  if (decision.decidedBy === 'fallback') return couldNotDecide(decision.reason, all);
  if (all.stop) return noted(answer(stoppedAnswer(all.stop, all)));
  return noted(answer(preToolUseAnswer(decision, all)));
}

interface Absorbed {
  guidance: ControlGuidance;
  /** For stderr (shown in Claude Code's verbose mode): why stored control messages could not be read. */
  note?: string;
  delivered: { control: ControlMessage; status: 'applied' | 'stopped' }[];
  stopped?: string;
}

/** Takes new control messages into the state: text for the model, the stop order, the resume that lifts it. */
function absorb(state: HookSessionState, controls: ControlMessage[]): Absorbed {
  const seen = new Set(state.seenControls);
  const result: Absorbed = { guidance: { context: [] }, delivered: [] };
  for (const control of controls) {
    if (seen.has(control.id)) continue;
    seen.add(control.id);
    state.seenControls.push(control.id);
    if (control.payload.kind === 'emergency_stop') {
      state.stopped = stopReasonOf(control);
      result.delivered.push({ control, status: 'stopped' });
      continue;
    }
    if (control.payload.kind === 'resume') delete state.stopped;
    result.guidance.context.push(controlText(control));
    result.delivered.push({ control, status: 'applied' });
  }
  if (state.stopped) {
    result.stopped = state.stopped;
    result.guidance.stop = state.stopped;
  }
  return result;
}

function merge(a: ControlGuidance, b: ControlGuidance): ControlGuidance {
  return { context: [...a.context, ...b.context], ...((b.stop ?? a.stop) ? { stop: b.stop ?? a.stop } : {}) };
}

async function withState<T>(file: SessionStateFile, remaining: () => number, task: (state: HookSessionState) => Promise<T>): Promise<T> {
  const locked = await file.lock(Math.min(3_000, remaining()));
  try {
    const state = file.read();
    const result = await task(state);
    file.write(state);
    return result;
  } finally {
    if (locked) file.unlock();
  }
}

/** Control messages that arrived while this run waited; recorded as seen so the next run does not show them again. */
async function absorbLive(file: SessionStateFile, remaining: () => number, live: ControlMessage[], session: AgentSession): Promise<ControlGuidance> {
  if (!live.length) return { context: [] };
  const absorbed = await withState(file, remaining, async (state) => absorb(state, live.splice(0)));
  await acknowledge(session, absorbed.delivered);
  return absorbed.guidance;
}

async function acknowledge(session: AgentSession, delivered: Absorbed['delivered']): Promise<void> {
  for (const { control, status } of delivered) {
    if (control.payload.requires_ack) await session.acknowledge(control, status);
  }
}
