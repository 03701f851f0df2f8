import { answerHook, couldNotDecide, HookInputError, notRecordedWhy, parseHookInput, type AnyHookInput, type HookOutcome } from '@warden/claude-code';
import { WardenClient } from '@warden/sdk';
import { HookSettingsError, loadHookSettings, type HookSettings } from './hook-settings.js';
import { SessionStateFiles } from './session-state-file.js';

/** What one hook run prints and how it exits (Claude Code: 0 = read stdout, 2 = block with stderr). */
export interface HookResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command transport of an outcome: the answer on stdout (exit 0), or exit 1 for what was not recorded. */
function printed(outcome: HookOutcome): HookResult {
  if (outcome.kind === 'not_recorded') return { code: 1, stdout: '', stderr: `warden hook: ${outcome.why}\n` };
  return { code: 0, stdout: outcome.output ? `${JSON.stringify(outcome.output)}\n` : '', stderr: outcome.note ? `warden hook: ${outcome.note}\n` : '' };
}

/** Warden could not even start on this call (bad configuration, NATS unreachable). */
function unanswered(input: AnyHookInput, settings: Pick<HookSettings, 'failOpenTools' | 'decide' | 'approvals'>, why: string): HookResult {
  if (input.hook_event_name === 'PreToolUse') return printed({ kind: 'answer', output: couldNotDecide(input, settings, why) });
  return printed({ kind: 'not_recorded', why: notRecordedWhy(input, why) });
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
 * One run of `warden hook`: reads Claude Code's hook payload from stdin, answers it through the shared
 * adapter (@warden/claude-code) with a connection of its own, and prints the answer. A payload that is
 * not a Claude Code hook payload exits 2 (Claude Code blocks the call and shows the reason to Claude).
 * Never throws: every path ends in a result.
 */
export async function runHook(stdin: string, env: NodeJS.ProcessEnv = process.env): Promise<HookResult> {
  let input: AnyHookInput;
  try {
    input = parseHookInput(stdin);
  } catch (error) {
    if (!(error instanceof HookInputError)) throw error;
    return { code: 2, stdout: '', stderr: `Warden could not decide on this tool call, so it is blocked (fail closed): the hook input is not a Claude Code hook payload: ${error.message}\n` };
  }
  let settings: HookSettings;
  try {
    settings = loadHookSettings(env.CLAUDE_PROJECT_DIR || input.cwd, env);
  } catch (error) {
    if (!(error instanceof HookSettingsError)) throw error;
    return unanswered(input, { failOpenTools: [], decide: false, approvals: 'auto' }, `the hook configuration is wrong: ${error.message}`);
  }
  const states = new SessionStateFiles(settings.stateDir, settings.agentId);
  // A session that never made a call has no run to record: no connection for its end.
  if (input.hook_event_name === 'SessionEnd' && !(await states.read(input.session_id)).declared) return printed({ kind: 'answer', output: null });
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
        name: `warden-hook-${settings.agentId}`,
      }),
      Math.min(settings.connectTimeoutMs, settings.deadlineMs),
      'connecting to NATS',
    );
  } catch (error) {
    return unanswered(input, settings, `cannot reach Warden at ${settings.servers}: ${(error as Error).message}`);
  }
  try {
    const outcome = await answerHook(input, {
      client,
      states,
      policy: settings,
      surroundings: { ...(env.CLAUDE_CODE_ENTRYPOINT ? { entrypoint: env.CLAUDE_CODE_ENTRYPOINT } : {}) },
      declaration: settings,
      readStoredControls: true,
      controlReadMs: settings.controlReadMs,
      deadline,
      deadlineMs: settings.deadlineMs,
    });
    return printed(outcome);
  } finally {
    // Everything sent was acknowledged; the process ends once the answer is written (hook-main).
    void client.close().catch(() => undefined);
  }
}
