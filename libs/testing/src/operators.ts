import type { NatsConnection } from '@nats-io/transport-node';
import { OperatorStore, type OperatorRole } from '@warden/operator-auth';

/** An operator with a role and an API token, created in the suite's operator store (as `warden operator add` does). */
export async function operatorToken(nc: NatsConnection, id: string, role: OperatorRole): Promise<string> {
  const store = new OperatorStore(nc);
  if (!(await store.get(id))) await store.add(id, role, { createdBy: 'test' });
  else await store.setRole(id, role);
  return store.issueToken(id, { label: 'test' });
}

/** Headers of an authenticated API call: the bearer token, and the FRD's operator header naming the same operator. */
export function operatorHeaders(token: string, operatorId?: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, ...(operatorId ? { 'X-Observatory-Operator-Id': operatorId } : {}) };
}
