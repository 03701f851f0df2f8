/** The work each service does with the messages it handles, as span names. */
const HANDLING: Record<string, string> = {
  reviewer: 'warden.review',
  gate: 'warden.gate',
  audit: 'warden.audit.ingest',
  'pattern-detector': 'warden.pattern',
  'intervention-controller': 'warden.intervention',
  breaker: 'warden.breaker',
  ladder: 'warden.ladder',
};

/** Publications that are a step of an action of their own. */
const PUBLISHING: Record<string, string> = {
  'action.proposed': 'warden.propose',
  'decision.made': 'warden.decide',
};

/** The span of a service handling a message: `warden.review`, `warden.gate`, ... (`warden.<service>` otherwise). */
export function handlingSpanName(service: string): string {
  return HANDLING[service] ?? `warden.${service}`;
}

/** The span of a message being published: `warden.propose`, `warden.decide`, else `warden.publish <type>`. */
export function publishingSpanName(type: string): string {
  return PUBLISHING[type] ?? `warden.publish ${type}`;
}
