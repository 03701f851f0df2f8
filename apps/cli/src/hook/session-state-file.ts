import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emptySessionState, SEEN_CONTROLS_KEPT, type HookSessionState, type SessionStates } from '@warden/agent-edge';

const LOCK_STALE_MS = 10_000;

/**
 * The command hook's session states: `<stateDir>/<agent>/<session>.json`. Claude Code runs the hooks of
 * parallel tool calls at the same time, so an update holds a lock file while it reads control messages
 * and changes the state: each control message is shown once.
 */
export class SessionStateFiles implements SessionStates {
  private readonly dir: string;

  constructor(stateDir: string, agentId: string) {
    this.dir = join(stateDir, agentId);
  }

  async read(sessionId: string): Promise<HookSessionState> {
    return this.load(this.path(sessionId));
  }

  async update<T>(sessionId: string, waitMs: number, task: (state: HookSessionState) => Promise<T>): Promise<T> {
    mkdirSync(this.dir, { recursive: true });
    const path = this.path(sessionId);
    const lock = `${path}.lock`;
    const locked = await this.lock(lock, waitMs);
    try {
      const state = this.load(path);
      const result = await task(state);
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ ...state, seenControls: state.seenControls.slice(-SEEN_CONTROLS_KEPT) }));
      renameSync(tmp, path);
      return result;
    } finally {
      if (locked) rmSync(lock, { force: true });
    }
  }

  /** Stored at once: each run of the command hook is a process of its own. */
  async later(sessionId: string, change: (state: HookSessionState) => void): Promise<void> {
    await this.update(sessionId, 3_000, async (state) => change(state));
  }

  private path(sessionId: string): string {
    return join(this.dir, `${sessionId}.json`);
  }

  private load(path: string): HookSessionState {
    if (!existsSync(path)) return emptySessionState();
    try {
      return { ...emptySessionState(), ...(JSON.parse(readFileSync(path, 'utf8')) as Partial<HookSessionState>) };
    } catch {
      return emptySessionState();
    }
  }

  /** Takes the session's lock, waiting up to `waitMs`; a lock older than 10 s is from a dead run and is taken over. */
  private async lock(lock: string, waitMs: number): Promise<boolean> {
    const until = Date.now() + waitMs;
    for (;;) {
      try {
        closeSync(openSync(lock, 'wx'));
        return true;
      } catch {
        try {
          if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmSync(lock, { force: true });
        } catch {
          // removed meanwhile
        }
      }
      if (Date.now() >= until) return false;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
