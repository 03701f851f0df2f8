import { answerEvent, claudeCodeAdapter, EdgeInputError, fallbackRecord, unhandledOutcome, type AgentAdapter, type EdgeEvent, type EdgeOutcome } from '@warden/agent-edge';
import { WardenClient } from '@warden/sdk';
import { HookSettingsError, loadHookSettings, type HookSettings } from './hook-settings.js';
import { SessionStateFiles } from './session-state-file.js';
import { UnrecordedAnswers } from './unrecorded-answers.js';

/** What one hook run prints and how it exits (Claude Code: 0 = read stdout, 2 = block with stderr). */
export interface HookResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command transport of an outcome: the agent's answer on stdout, or exit 1 for what was not recorded. */
function printed(adapter: AgentAdapter, event: EdgeEvent, outcome: EdgeOutcome): HookResult {
  if (outcome.kind === 'not_recorded') return { code: 1, stdout: '', stderr: `warden hook: ${outcome.why}\n` };
  const body = adapter.write(event, outcome.answer);
  return { code: 0, stdout: body ? `${JSON.stringify(body)}\n` : '', stderr: outcome.note ? `warden hook: ${outcome.note}\n` : '' };
}

/** Warden could not even start on this call (bad configuration, NATS unreachable): the answer is kept, when there is a place for it, to be recorded by a later run. */
function unanswered(adapter: AgentAdapter, event: EdgeEvent, settings: Pick<HookSettings, 'failOpenTools' | 'decide' | 'approvals'>, why: string, unrecorded?: UnrecordedAnswers): HookResult {
  const outcome = unhandledOutcome(event, adapter, settings, why);
  const record = outcome.kind === 'answer' ? fallbackRecord(event, outcome.answer, 'hook') : undefined;
  if (record) unrecorded?.keep([record]);
  return printed(adapter, event, outcome);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
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
 * One run of `warden hook`: reads the agent's hook payload from stdin (Claude Code's unless another
 * adapter is given), answers it through the shared edge (@warden/agent-edge) with a connection of its
 * own, and prints the answer. A payload the adapter cannot read exits 2 (the agent blocks the call and
 * shows the reason). Never throws: every path ends in a result.
 */
export async function runHook(stdin: string, env: NodeJS.ProcessEnv = process.env, adapter: AgentAdapter = claudeCodeAdapter): Promise<HookResult> {
  let event: EdgeEvent;
  try {
    event = adapter.read(stdin, {});
  } catch (error) {
    if (!(error instanceof EdgeInputError)) throw error;
    return { code: 2, stdout: '', stderr: `Warden could not decide on this tool call, so it is blocked (fail closed): the hook input is not a ${adapter.title} hook payload: ${error.message}\n` };
  }
  let settings: HookSettings;
  try {
    settings = loadHookSettings(env.CLAUDE_PROJECT_DIR || event.session.cwd || process.cwd(), env);
  } catch (error) {
    if (!(error instanceof HookSettingsError)) throw error;
    return unanswered(adapter, event, { failOpenTools: [], decide: false, approvals: 'auto' }, `the hook configuration is wrong: ${error.message}`);
  }
  const states = new SessionStateFiles(settings.stateDir, settings.agentId);
  const unrecorded = new UnrecordedAnswers(settings.stateDir, settings.agentId);
  // A session that never made a call has no run to record: no connection for its end.
  if (event.type === 'session_end' && !(await states.read(event.session.id)).declared) return printed(adapter, event, { kind: 'answer', answer: { context: [] } });
  const deadline = Date.now() + settings.deadlineMs;
  let client: WardenClient;
  try {
    client = await withTimeout(
      WardenClient.connect({
        servers: settings.servers,
        agentId: settings.agentId,
        password: settings.password,
        decisionTimeoutMs: settings.deadlineMs,
        applyControl: false,
        // The edge records its own answers given without a decision (answered_by hook).
        recordFallbacks: false,
        name: `warden-hook-${settings.agentId}`,
      }),
      Math.min(settings.connectTimeoutMs, settings.deadlineMs),
      'connecting to NATS',
    );
  } catch (error) {
    return unanswered(adapter, event, settings, `cannot reach Warden at ${settings.servers}: ${(error as Error).message}`, unrecorded);
  }
  // What earlier runs answered while Warden could not be reached, recorded now that it can be.
  for (const record of unrecorded.take()) void client.recordFallback(record);
  try {
    const outcome = await answerEvent(event, {
      adapter,
      client,
      states,
      policy: settings,
      surroundings: { ...(env.CLAUDE_CODE_ENTRYPOINT ? { entrypoint: env.CLAUDE_CODE_ENTRYPOINT } : {}) },
      declaration: settings,
      readStoredControls: true,
      controlReadMs: settings.controlReadMs,
      usageFromTranscript: settings.usageFromTranscript,
      deadline,
      deadlineMs: settings.deadlineMs,
      answeredBy: 'hook',
    });
    // A derived call's record: stored before this process ends (a file write, before the answer is printed).
    if (outcome.kind === 'answer') await outcome.settle?.();
    return printed(adapter, event, outcome);
  } finally {
    await Promise.race([client.flushFallbacks(), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
    // What could not be sent in this run waits for the next one.
    unrecorded.keep(client.unsent);
    // Everything sent was acknowledged; the process ends once the answer is written (hook-main).
    void client.close().catch(() => undefined);
  }
}
