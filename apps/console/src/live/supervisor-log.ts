import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** What `warden up`'s supervisor wrote: a service that died, and that it started it again. */
export interface SuiteIncident {
  time: string;
  msg: string;
}

/** What one service went through: how often it died, and the latest incident. */
export interface ServiceIncidents {
  service: string;
  deaths: number;
  last: SuiteIncident;
}

/** Only the end of the log is read: what a page shows is the latest incidents. */
const TAIL_BYTES = 64 * 1024;

/**
 * The incidents `warden up` records of the processes it keeps running (`logs/supervisor.log`, one JSON
 * object per line: `<service> (pid N) exited …`, `<service> started again …`), for the console to show.
 * No log (a console not started by `warden up`), an unreadable one or a damaged line shows nothing rather
 * than failing the page.
 */
export class SupervisorLog {
  constructor(private readonly path: string | undefined) {}

  /** Per service, the incidents of the last `withinMs`: how often it died and its latest; the latest first. */
  byService(now = Date.now(), withinMs = 24 * 3_600_000): ServiceIncidents[] {
    const services = new Map<string, ServiceIncidents>();
    for (const incident of this.recent(now, withinMs)) {
      const service = incident.msg.split(' ', 1)[0]!;
      const known = services.get(service) ?? { service, deaths: 0, last: incident };
      if (/^\S+ \(pid \d+\) exited/.test(incident.msg)) known.deaths += 1;
      known.last = incident;
      services.set(service, known);
    }
    return [...services.values()].sort((a, b) => b.last.time.localeCompare(a.last.time));
  }

  /** The incidents of the last `withinMs`, oldest first, from the end of the log. */
  recent(now = Date.now(), withinMs = 24 * 3_600_000): SuiteIncident[] {
    if (!this.path) return [];
    let text: string;
    try {
      text = tail(this.path, TAIL_BYTES);
    } catch {
      return [];
    }
    const incidents: SuiteIncident[] = [];
    for (const line of text.split('\n')) {
      try {
        const entry = JSON.parse(line) as Partial<SuiteIncident>;
        if (typeof entry.time === 'string' && typeof entry.msg === 'string' && now - Date.parse(entry.time) <= withinMs) incidents.push({ time: entry.time, msg: entry.msg });
      } catch {
        // A line cut by the tail, or not the supervisor's.
      }
    }
    return incidents;
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
