import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What one hook run leaves for the next run of the same session. */
export interface HookSessionState {
  /** session.started was published for this session. */
  declared: boolean;
  /** Stream sequence of the last control message read from the control stream. */
  controlSequence: number;
  /** Ids of control messages already shown (the last few), so none is shown twice. */
  seenControls: string[];
  /** Set by an emergency stop, cleared by a resume: every later call is denied. */
  stopped?: string;
  /** How often the session ended (a resumed session ends again): numbers its session.ended messages. */
  endedRuns?: number;
}

const SEEN_KEPT = 200;
const LOCK_STALE_MS = 10_000;

const empty = (): HookSessionState => ({ declared: false, controlSequence: 0, seenControls: [] });

/**
 * The state of one session, in `<stateDir>/<agent>/<session>.json`. Claude Code runs hooks of parallel
 * tool calls at the same time, so a run holds a lock file while it reads control messages and updates
 * the state: each control message is shown once.
 */
export class SessionStateFile {
  private readonly path: string;
  private readonly lockPath: string;
  private locked = false;

  constructor(stateDir: string, agentId: string, sessionId: string) {
    const dir = join(stateDir, agentId);
    mkdirSync(dir, { recursive: true });
    this.path = join(dir, `${sessionId}.json`);
    this.lockPath = `${this.path}.lock`;
  }

  read(): HookSessionState {
    if (!existsSync(this.path)) return empty();
    try {
      return { ...empty(), ...(JSON.parse(readFileSync(this.path, 'utf8')) as Partial<HookSessionState>) };
    } catch {
      return empty();
    }
  }

  write(state: HookSessionState): void {
    const next = { ...state, seenControls: state.seenControls.slice(-SEEN_KEPT) };
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(next));
    renameSync(tmp, this.path);
  }

  /** Takes the session's lock, waiting up to `waitMs`; a lock older than 10 s is from a dead run and is taken over. */
  async lock(waitMs: number): Promise<boolean> {
    const until = Date.now() + waitMs;
    for (;;) {
      try {
        closeSync(openSync(this.lockPath, 'wx'));
        this.locked = true;
        return true;
      } catch {
        try {
          if (Date.now() - statSync(this.lockPath).mtimeMs > LOCK_STALE_MS) rmSync(this.lockPath, { force: true });
        } catch {
          // removed meanwhile
        }
      }
      if (Date.now() >= until) return false;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  unlock(): void {
    if (this.locked) rmSync(this.lockPath, { force: true });
    this.locked = false;
  }
}
