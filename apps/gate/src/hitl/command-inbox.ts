import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSubjectToken } from '@warden/contracts';
import type { Logger } from '@warden/observability';
import type { DispatchOutcome } from '../core/command-dispatcher.js';
import { checkHitlCommand, type HitlCommand } from '@warden/gate';

/** Where a command file goes once handled, next to the session's new files. */
export const INBOX_FOLDERS = { processing: '.processing', processed: '.processed', rejected: '.rejected' } as const;

/**
 * The command queue of FR-11.4: one JSON file per command at `<dir>/<session_id>/<id>.json`. A file is
 * claimed by renaming it (so that one replica takes it even when several share the directory), sent to
 * the session's owner with an id derived from its path (so that sending it again stores it once), and
 * moved to `.processed/` with the owner's answer in `<id>.result.json`. A malformed or refused file is
 * moved to `.rejected/` with the reason in `<id>.reason.json`. Found by file-system events and a
 * periodic scan.
 */
export class CommandInbox {
  private watcher?: FSWatcher;
  private timer?: NodeJS.Timeout;
  private scanning?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly dir: string,
    private readonly dispatch: (command: HitlCommand, key: string) => Promise<DispatchOutcome>,
    private readonly log: Logger,
    private readonly scanMs: number,
  ) {}

  async start(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    try {
      this.watcher = watch(this.dir, { recursive: true }, () => this.kick());
      this.watcher.on('error', () => undefined);
    } catch {
      // Without file-system events the periodic scan still finds every file.
    }
    this.timer = setInterval(() => this.kick(), this.scanMs);
    this.timer.unref();
    await this.scan(true);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.watcher?.close();
    clearInterval(this.timer);
    await this.scanning;
  }

  /** Scans now, or once more after the scan in progress. */
  kick(): void {
    if (this.stopped) return;
    if (this.scanning) {
      this.again = true;
      return;
    }
    this.scanning = this.scan(false).finally(() => {
      this.scanning = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** One pass over the inbox; `leftovers` also takes files a crashed replica had claimed. */
  async scan(leftovers: boolean): Promise<void> {
    let sessions;
    try {
      sessions = await readdir(this.dir, { withFileTypes: true });
    } catch (error) {
      this.log.warn({ err: error, dir: this.dir }, 'command inbox unreadable');
      return;
    }
    for (const session of sessions) {
      if (this.stopped) return;
      if (!session.isDirectory() || session.name.startsWith('.')) continue;
      const sessionDir = join(this.dir, session.name);
      if (leftovers) {
        for (const file of await this.files(join(sessionDir, INBOX_FOLDERS.processing))) {
          await this.process(session.name, join(sessionDir, INBOX_FOLDERS.processing, file), file);
        }
      }
      for (const file of await this.files(sessionDir)) {
        const claimed = join(sessionDir, INBOX_FOLDERS.processing, file);
        await mkdir(join(sessionDir, INBOX_FOLDERS.processing), { recursive: true });
        try {
          await rename(join(sessionDir, file), claimed);
        } catch {
          continue; // another replica claimed it
        }
        await this.process(session.name, claimed, file);
      }
    }
  }

  private async files(dir: string): Promise<string[]> {
    try {
      return (await readdir(dir, { withFileTypes: true })).filter((f) => f.isFile() && f.name.endsWith('.json')).map((f) => f.name).sort();
    } catch {
      return [];
    }
  }

  private async process(sessionId: string, path: string, file: string): Promise<void> {
    const id = file.slice(0, -'.json'.length);
    const sessionDir = join(this.dir, sessionId);
    if (!isSubjectToken(id)) return this.reject(sessionDir, path, file, 'invalid_command_id: the file name must be letters, digits, - or _ before .json');
    if (await exists(join(sessionDir, INBOX_FOLDERS.processed, file))) return this.reject(sessionDir, path, file, 'duplicate_command_id: a command with this id was processed already');
    let body: unknown;
    try {
      body = JSON.parse(await readFile(path, 'utf8'));
    } catch {
      return this.reject(sessionDir, path, file, 'invalid_json');
    }
    const check = checkHitlCommand(body);
    if (!check.ok) return this.reject(sessionDir, path, file, check.reason);
    if (check.command.session_id !== sessionId) {
      return this.reject(sessionDir, path, file, `session_id_mismatch: the file is in ${sessionId}/ but names ${check.command.session_id}`);
    }
    let outcome: DispatchOutcome;
    try {
      outcome = await this.dispatch(check.command, `inbox:${sessionId}:${id}`);
    } catch (error) {
      // The bus is away: give the file back; the next scan sends it again (same id, stored once).
      this.log.warn({ err: error, file: path }, 'could not send an inbox command; retrying later');
      await rename(path, join(sessionDir, file)).catch(() => undefined);
      return;
    }
    if (outcome.status === 'error') return this.reject(sessionDir, path, file, outcome.reason);
    await mkdir(join(sessionDir, INBOX_FOLDERS.processed), { recursive: true });
    await writeFile(join(sessionDir, INBOX_FOLDERS.processed, `${id}.result.json`), JSON.stringify({ ...outcome, processed_at: new Date().toISOString() }) + '\n');
    await rename(path, join(sessionDir, INBOX_FOLDERS.processed, file));
    this.log.info({ file, session_id: sessionId, command: check.command.type, status: outcome.status }, 'inbox command processed');
  }

  private async reject(sessionDir: string, path: string, file: string, reason: string): Promise<void> {
    const id = file.slice(0, -'.json'.length);
    await mkdir(join(sessionDir, INBOX_FOLDERS.rejected), { recursive: true });
    await writeFile(join(sessionDir, INBOX_FOLDERS.rejected, `${id}.reason.json`), JSON.stringify({ status: 'error', reason, rejected_at: new Date().toISOString() }) + '\n');
    await rename(path, join(sessionDir, INBOX_FOLDERS.rejected, file)).catch(() => undefined);
    this.log.warn({ file, reason }, 'inbox command rejected');
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
