import type { ParsedAction } from '../parsing/parsed-action.js';
import { isConnectionFailure, type ActionRecord, type ReviewSession } from '../session/review-session.js';
import { failedAddresses, healthUrl, quoteError } from './connection-failure.js';
import { addressOf, type ProjectKnowledge, type ServiceEndpoint } from '@warden/project-knowledge';
import { mayStartService, onlyProbes, recordProbes, requestTargets, startsService } from './requests.js';
import type { ToolValidator, ValidationContext, ValidationResult, ValidationRisk } from './tool-validator.js';

interface DownEndpoint {
  failure: ActionRecord;
  /** A probe (curl, nc -z, a fetch) already found it down. */
  probed: boolean;
}

interface KnownEndpoints {
  byHostPort: Map<string, ServiceEndpoint>;
  ports: Set<number>;
  /** "Playwright Server http://localhost:9222 (PLAYWRIGHT_SERVER_URL), Main API http://localhost:8080 (API_BASE_URL)". */
  listing: string;
}

const knownByKnowledge = new WeakMap<ProjectKnowledge, KnownEndpoints>();
const suspectsByList = new WeakMap<readonly string[], Set<string>>();

function knownEndpoints(knowledge: ProjectKnowledge | undefined): KnownEndpoints | undefined {
  if (!knowledge?.endpoints.length) return undefined;
  let known = knownByKnowledge.get(knowledge);
  if (!known) {
    known = { byHostPort: new Map(), ports: new Set(), listing: '' };
    for (const endpoint of knowledge.endpoints) {
      const address = addressOf(endpoint.defaultUrl);
      if (!address) continue;
      known.byHostPort.set(address.hostPort, endpoint);
      known.ports.add(address.port);
    }
    known.listing = knowledge.endpoints.map((e) => `${e.name} ${e.defaultUrl}${e.configKey ? ` (${e.configKey})` : ''}`).join(', ');
    knownByKnowledge.set(knowledge, known);
  }
  return known;
}

function suspects(list: readonly string[]): Set<string> {
  let set = suspectsByList.get(list);
  if (!set) {
    set = new Set(list.flatMap((entry) => addressOf(entry)?.hostPort ?? []));
    suspectsByList.set(list, set);
  }
  return set;
}

/** Endpoints that refused or dropped a connection in a recent failure, unless something was started since. */
function downEndpoints(session: ReviewSession): Map<string, DownEndpoint> {
  const down = new Map<string, DownEndpoint>();
  const failures = session.recentFailures().filter((f) => isConnectionFailure(f));
  if (!failures.length) return down;
  const history = session.history;
  let lastStart = -1;
  for (let i = history.length - 1; i >= 0 && lastStart < 0; i--) if (startsService(history[i]!)) lastStart = i;
  for (const failure of failures) {
    if (history.indexOf(failure) < lastStart) continue;
    const probed = recordProbes(failure);
    for (const { address } of failedAddresses(failure)) {
      const seen = down.get(address.hostPort);
      if (!seen) down.set(address.hostPort, { failure, probed });
      else seen.probed ||= probed;
    }
  }
  return down;
}

function risks(port: number): ValidationRisk[] {
  return [
    { kind: 'wrong_endpoint', description: 'May not be the intended service' },
    { kind: 'service_not_running', description: `Service may not be running on ${port}` },
  ];
}

/**
 * The assumption trap (seed 004): talking to an endpoint the agent assumed. A request needs confirmation
 * when it goes to an endpoint that just refused a connection (the agent retries what is known to be down;
 * a first probe is a diagnostic and goes ahead, a repeated one does not — except a probe of a local
 * service, which only draws a caution: it is how an agent sees whether a restart took), or to a suspect endpoint
 * (settings.validators.suspect_endpoints, localhost:3000 by default) the project's knowledge does not
 * list, unless it is a local one the session started a server for or that answered it before. A probe (GET without a body, nc -z) of a suspect endpoint only draws a caution: looking costs
 * nothing, and it is the connectivity test the installation check asks for. A local port the project's
 * endpoints do not use draws a caution too.
 */
export class NetworkValidator implements ToolValidator {
  readonly id = 'network_operations';

  appliesTo(action: ParsedAction): boolean {
    return action.intents.includes('network_request') && (action.urls.length > 0 || action.segments.length > 0);
  }

  validate(action: ParsedAction, context: ValidationContext): ValidationResult {
    const targets = requestTargets(action);
    if (!targets.length) return { kind: 'approve' };
    const probe = onlyProbes(action);
    const known = knownEndpoints(context.knowledge);
    const suspect = suspects(context.suspectEndpoints);
    const down = downEndpoints(context.session);
    // A local port the agent started a server for (in this line or earlier), or one that answered it, is no guess.
    // Asked only of a suspect endpoint: most requests go elsewhere, and the history is long.
    const ownServer = () => mayStartService(action) || context.session.history.some(startsService);
    const answered = (hostPort: string) => context.session.history.some((r) => r.status === 'success' && r.shell?.targets.some((t) => t.address.hostPort === hostPort));
    const knownNote = known ? ` The project's known endpoints: ${known.listing}.` : '';
    let caution: string | undefined;
    for (const { address } of targets) {
      const { hostPort } = address;
      const refused = down.get(hostPort);
      // Probing a local service again is how an agent sees whether a restart took: it is told, not held.
      if (refused && probe && refused.probed && address.local) {
        caution ??= `${hostPort} did not accept a connection when it was last probed ("${quoteError(refused.failure)}"): if it still does not, read the service's logs instead of probing again.`;
        continue;
      }
      if (refused && (!probe || refused.probed)) {
        const when = refused.probed ? 'when it was probed' : 'in a recent failure';
        return {
          kind: 'require_confirmation',
          reason:
            `${hostPort} did not accept a connection ${when} ("${quoteError(refused.failure)}") and nothing was started since: ` +
            `retrying an endpoint known to be down fails the same way. Check which endpoint the configuration names and whether the service runs.${knownNote}`,
          risks: risks(address.port),
        };
      }
      if (suspect.has(hostPort) && !known?.byHostPort.has(hostPort) && !(address.local && (ownServer() || answered(hostPort)))) {
        if (!probe) {
          return {
            kind: 'require_confirmation',
            reason: `Request targets ${hostPort}, an endpoint agents often assume: it may not be the intended service, or nothing may be running there.${knownNote}`,
            risks: risks(address.port),
          };
        }
        caution ??= `Probing ${hostPort}, an endpoint agents often assume: make sure it is the service the project uses.${knownNote}`;
      }
      if (known && address.local && !known.ports.has(address.port)) {
        caution ??= `Request targets ${hostPort}, which is none of the project's known endpoints: ${known.listing}.`;
      }
    }
    return caution ? { kind: 'caution', warning: caution } : { kind: 'approve' };
  }

  alternatives(action: ParsedAction, context: ValidationContext): string[] {
    const alternatives = (context.knowledge?.endpoints ?? []).map(
      (e) => `Use the project's ${e.name} at ${e.defaultUrl}${e.configKey ? ` (configured by ${e.configKey})` : ''}; check it with curl -sS ${healthUrl(e)}`,
    );
    alternatives.push('Check which endpoint the configuration names before connecting');
    const port = requestTargets(action).find((t) => t.address.local)?.address.port;
    if (port !== undefined) alternatives.push(`Check whether anything listens on port ${port}: lsof -i :${port}`);
    return alternatives;
  }
}
