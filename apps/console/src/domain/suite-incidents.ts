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

const DIED = /^\S+ \(pid \d+\) exited/;

/**
 * The supervisor's log lines (one JSON object each: `<service> (pid N) exited …`, `<service> started
 * again …`) per service, those of the last `withinMs` only: how often it died and its latest incident,
 * the latest service first. A line that is not the supervisor's (cut, damaged) is passed over.
 */
export function incidentsByService(lines: readonly string[], now: number, withinMs: number): ServiceIncidents[] {
  const services = new Map<string, ServiceIncidents>();
  for (const line of lines) {
    let entry: Partial<SuiteIncident>;
    try {
      entry = JSON.parse(line) as Partial<SuiteIncident>;
    } catch {
      continue;
    }
    if (typeof entry.time !== 'string' || typeof entry.msg !== 'string' || !(now - Date.parse(entry.time) <= withinMs)) continue;
    const incident = { time: entry.time, msg: entry.msg };
    const service = incident.msg.split(' ', 1)[0]!;
    const known = services.get(service) ?? { service, deaths: 0, last: incident };
    if (DIED.test(incident.msg)) known.deaths += 1;
    known.last = incident;
    services.set(service, known);
  }
  return [...services.values()].sort((a, b) => b.last.time.localeCompare(a.last.time));
}
