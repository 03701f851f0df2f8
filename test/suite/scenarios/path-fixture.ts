import { ServiceProcess } from '@warden/local-runtime';
import { WardenClient, type ActionDecision } from '@warden/sdk';
import { TestNatsServer } from '@warden/testing';

export const PARTITIONS = 8;

/** Fast failover for tests: a silent replica loses its partitions after two seconds. */
export const FAST_LEASES = { WARDEN_HEARTBEAT_MS: '200', WARDEN_LEASE_MS: '2000' };

/** A nats-server and the services of the decision path (reviewer replicas and a gate) as processes. */
export class DecisionPath {
  readonly reviewers: ServiceProcess[] = [];
  gate?: ServiceProcess;

  private constructor(
    readonly nats: TestNatsServer,
    private readonly reviewerEnv: Record<string, string>,
  ) {}

  /** `reviewerEnv`: more environment for every reviewer (its REVIEWER_CONFIG, say). */
  static async start(reviewers: number, reviewerEnv: Record<string, string> = {}): Promise<DecisionPath> {
    const path = new DecisionPath(await TestNatsServer.start({ partitions: PARTITIONS, agents: ['agent-1'] }), reviewerEnv);
    for (let i = 0; i < reviewers; i++) await path.startReviewer(`reviewer-${i}`);
    path.gate = await ServiceProcess.start({ app: 'gate', nats: path.nats.service, partitions: PARTITIONS, env: FAST_LEASES });
    return path;
  }

  async startReviewer(replicaId: string): Promise<ServiceProcess> {
    const reviewer = await ServiceProcess.start({
      app: 'reviewer',
      nats: this.nats.service,
      partitions: PARTITIONS,
      env: { ...FAST_LEASES, ...this.reviewerEnv, WARDEN_REPLICA_ID: replicaId },
    });
    this.reviewers.push(reviewer);
    return reviewer;
  }

  agent(decisionTimeoutMs = 60_000): Promise<WardenClient> {
    const settings = this.nats.agent('agent-1');
    return WardenClient.connect({ servers: this.nats.url, agentId: 'agent-1', password: settings.password, decisionTimeoutMs });
  }

  async stop(): Promise<void> {
    await Promise.all([...this.reviewers, ...(this.gate ? [this.gate] : [])].map((s) => s.stop()));
    await this.nats.stop();
  }
}

/** Partitions a reviewer replica owns, read from its metrics. */
export async function ownedPartitions(service: ServiceProcess): Promise<number> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  return Number(/^warden_partitions_owned\{[^}]*\} (\d+)$/m.exec(text)?.[1] ?? NaN);
}

/** A small mix of what a coding agent does; every fifth action is destructive and must be denied. */
export function scriptedAction(i: number): { tool: string; input: Record<string, unknown>; denied: boolean } {
  if (i % 5 === 4) return { tool: 'Bash', input: { command: 'rm -rf /' }, denied: true };
  if (i % 3 === 0) return { tool: 'Bash', input: { command: `npm test -- --grep case-${i}` }, denied: false };
  return { tool: 'Read', input: { file_path: `/work/app/src/file-${i}.ts` }, denied: false };
}

export function expectDecidedByReviewer(decisions: ActionDecision[]): void {
  const unanswered = decisions.filter((d) => d.decidedBy !== 'reviewer');
  if (unanswered.length) {
    throw new Error(`${unanswered.length} actions were not decided by the reviewer, e.g. ${JSON.stringify(unanswered[0])}`);
  }
}
