import { isConnectionFailure, type ActionRecord, type ReviewSession } from '../session/review-session.js';
import {
  addressesIn,
  addressOf,
  joinUrl,
  normaliseText,
  type EndpointAddress,
  type KnownIssue,
  type ProjectKnowledge,
  type ServiceEndpoint,
} from '@warden/project-knowledge';
import { failureText } from './project-knowledge.js';
import { recordTargets, type RequestTarget } from './requests.js';

/** What a connection failure tells about where the agent tried to connect, and where the project says to. */
export interface ConnectionTarget {
  failure: ActionRecord;
  /** The URL (or host:port, as http://…) the failure names or the failed action requested. */
  failedUrl?: string;
  failedAddress?: EndpointAddress;
  /** The knowledge's endpoint the failure is about. */
  endpoint?: ServiceEndpoint;
  /** Known issues whose symptom the failure shows. */
  issues: KnownIssue[];
}

/**
 * Actions after a connection failure within which what the agent does is read as its reaction to it:
 * as far as the pattern detector reads its traps (`traps.reaction_actions`).
 */
export const REACTION_ACTIONS = 8;

/**
 * The newest connection failure among the session's recent failures, while what follows may still be a
 * reaction to it: not once the agent has moved on (REACTION_ACTIONS later), nor once the failing action
 * has since succeeded (the failure was dealt with).
 */
export function lastConnectionFailure(session: ReviewSession): ActionRecord | undefined {
  const failure = session.recentFailures().find((f) => isConnectionFailure(f));
  if (!failure) return undefined;
  const since = session.since(failure);
  if (since.length >= REACTION_ACTIONS || since.some((r) => r.key === failure.key && r.status === 'success')) return undefined;
  return failure;
}

/** Where a failed action tried to connect: the requests it made, then the addresses its error names. */
export function failedAddresses(failure: ActionRecord): RequestTarget[] {
  const found = recordTargets(failure);
  for (const named of addressesIn(failure.error?.message ?? '')) {
    if (!found.some((f) => f.address.hostPort === named.address.hostPort)) found.push(named);
  }
  return found;
}

function endpointAbout(knowledge: ProjectKnowledge, text: string, failed: EndpointAddress | undefined, issues: readonly KnownIssue[]): ServiceEndpoint | undefined {
  const advice = normaliseText(issues.map((i) => `${i.simpleFix} ${i.commonCause ?? ''}`).join(' '));
  return (
    knowledge.endpoints.find((e) => text.includes(normaliseText(e.name)) || (e.configKey && text.includes(e.configKey.toLowerCase()))) ??
    knowledge.endpoints.find((e) => failed && addressOf(e.defaultUrl)?.hostPort === failed.hostPort) ??
    // The known issue's advice names the setting: "Check PLAYWRIGHT_SERVER_URL environment variable".
    knowledge.endpoints.find((e) => e.configKey && advice.includes(e.configKey.toLowerCase()))
  );
}

export function connectionTarget(failure: ActionRecord, knowledge: ProjectKnowledge | undefined): ConnectionTarget {
  const target: ConnectionTarget = { failure, issues: [] };
  const failed = failedAddresses(failure)[0];
  if (failed) {
    target.failedUrl = failed.url;
    target.failedAddress = failed.address;
  }
  if (!knowledge) return target;
  const text = failureText(failure);
  target.issues = knowledge.knownIssues.filter((issue) => text.includes(normaliseText(issue.symptom)));
  const endpoint = endpointAbout(knowledge, text, failed?.address, target.issues);
  if (endpoint) target.endpoint = endpoint;
  return target;
}

/** The endpoint's health-check URL, or its default URL. */
export function healthUrl(endpoint: ServiceEndpoint): string {
  return joinUrl(endpoint.defaultUrl, endpoint.healthCheck);
}

const MAX_QUOTE = 160;
const WHITESPACE = /\s+/g;

export function quoteError(failure: ActionRecord): string {
  const message = (failure.error?.message ?? '').replace(WHITESPACE, ' ').trim();
  return message.length > MAX_QUOTE ? `${message.slice(0, MAX_QUOTE - 1)}…` : message;
}
