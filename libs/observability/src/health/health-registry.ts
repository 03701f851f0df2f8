export interface HealthCheckResult {
  up: boolean;
  detail?: string;
}

export type HealthCheck = () => HealthCheckResult | Promise<HealthCheckResult>;

export interface HealthReport {
  status: 'ok' | 'unavailable';
  checks: Record<string, HealthCheckResult>;
}

/**
 * Readiness is the conjunction of the checks that modules register (NATS connection, partitions owned,
 * database reachable). Liveness only says that the process answers.
 */
export class HealthRegistry {
  private readonly checks = new Map<string, HealthCheck>();

  register(name: string, check: HealthCheck): void {
    this.checks.set(name, check);
  }

  async readiness(): Promise<HealthReport> {
    const checks: Record<string, HealthCheckResult> = {};
    for (const [name, check] of this.checks) {
      try {
        checks[name] = await check();
      } catch (error) {
        checks[name] = { up: false, detail: (error as Error).message };
      }
    }
    const up = Object.values(checks).every((c) => c.up);
    return { status: up ? 'ok' : 'unavailable', checks };
  }
}
