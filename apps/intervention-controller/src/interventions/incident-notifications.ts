import { Inject, Injectable } from '@nestjs/common';
import type { SessionAddress } from '@warden/messaging';
import { LOGGER, type Logger } from '@warden/observability';
import type { IncidentReport } from '@warden/interventions';
import { InterventionMetrics } from './intervention-metrics.js';
import type { Notifier } from './notifier.js';

export const INTERVENTION_NOTIFIERS = Symbol('INTERVENTION_NOTIFIERS');

/** An emergency stop's incident, sent to every configured notifier once the session's record is stored. */
@Injectable()
export class IncidentNotifications {
  constructor(
    @Inject(INTERVENTION_NOTIFIERS) private readonly notifiers: Notifier[],
    private readonly metrics: InterventionMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async send(address: SessionAddress, incident: IncidentReport): Promise<void> {
    await Promise.all(
      this.notifiers.map(async (notifier) => {
        try {
          await notifier.notify({ agent_id: address.agentId, session_id: address.sessionId, incident });
          this.metrics.notifications.inc({ notifier: notifier.name, result: 'delivered' });
        } catch (error) {
          this.metrics.notifications.inc({ notifier: notifier.name, result: 'failed' });
          this.logger.error({ agent_id: address.agentId, session_id: address.sessionId, incident_id: incident.incident_id, err: error }, `emergency stop notification via ${notifier.name} failed`);
        }
      }),
    );
  }
}
