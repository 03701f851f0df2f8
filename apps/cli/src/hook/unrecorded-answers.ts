import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FallbackRecord } from '@warden/sdk';

/**
 * Answers the command hook gave while Warden could not be reached (`<stateDir>/<agent>/unrecorded-answers.jsonl`):
 * each run lasts one call, so what it could not send is kept here, and the next run that reaches Warden
 * sends it. A run that takes the file sends what it took; one that finds none has nothing to send.
 */
export class UnrecordedAnswers {
  private readonly path: string;

  constructor(stateDir: string, agentId: string) {
    this.path = join(stateDir, agentId, 'unrecorded-answers.jsonl');
  }

  keep(records: readonly FallbackRecord[]): void {
    if (!records.length) return;
    mkdirSync(join(this.path, '..'), { recursive: true });
    appendFileSync(this.path, records.map((r) => `${JSON.stringify(r)}\n`).join(''), { mode: 0o600 });
  }

  /** Takes what was kept (no other run will send it again); lines that do not parse are dropped. */
  take(): FallbackRecord[] {
    if (!existsSync(this.path)) return [];
    const taken = `${this.path}.${process.pid}.sending`;
    try {
      renameSync(this.path, taken);
    } catch {
      return [];
    }
    try {
      return readFileSync(taken, 'utf8')
        .split('\n')
        .filter(Boolean)
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as FallbackRecord];
          } catch {
            return [];
          }
        });
    } finally {
      rmSync(taken, { force: true });
    }
  }
}
