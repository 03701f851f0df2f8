import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { incidentsByService, type ServiceIncidents } from '../domain/suite-incidents.js';

/** Only the end of the log is read: what a page shows is the latest incidents. */
const TAIL_BYTES = 64 * 1024;
const DAY_MS = 24 * 3_600_000;

/**
 * The incidents `warden up` records of the processes it keeps running (`logs/supervisor.log`), for the
 * console to show. No log (a console not started by `warden up`) or an unreadable one shows nothing
 * rather than failing the page.
 */
export class SupervisorLog {
  constructor(private readonly path: string | undefined) {}

  /** Per service, the incidents of the last `withinMs` (a day): how often it died and its latest. */
  byService(now = Date.now(), withinMs = DAY_MS): ServiceIncidents[] {
    if (!this.path) return [];
    let text: string;
    try {
      text = tail(this.path, TAIL_BYTES);
    } catch {
      return [];
    }
    return incidentsByService(text.split('\n'), now, withinMs);
  }
}

function tail(path: string, bytes: number): string {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, bytes);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } finally {
    closeSync(fd);
  }
}
