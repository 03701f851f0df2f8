import { Inject, Injectable } from '@nestjs/common';
import type { PayloadOf } from '@warden/contracts';
import { BusConnection, SealKeyring } from '@warden/messaging';
import { LOGGER, MetricsRegistry, type Logger } from '@warden/observability';
import { openSealed, SealError } from '@warden/secrets';

type ProposedAction = PayloadOf<'action.proposed'>;

/**
 * Opens the secrets an agent sealed in its action (the stream holds `[REDACTED:…]` markers only), so the
 * action is judged as the agent sent it, in memory. One that cannot be opened (no key provisioned, a key
 * made anew since) is judged with its markers, each a secret of its kind (libs/review action-secrets),
 * logged and counted.
 */
@Injectable()
export class SealedActions {
  private readonly keyring: SealKeyring;
  private readonly unopened;

  constructor(bus: BusConnection, metrics: MetricsRegistry, @Inject(LOGGER) private readonly logger: Logger) {
    this.keyring = new SealKeyring(bus.nc);
    this.unopened = metrics.counter({
      name: 'warden_review_sealed_unopened_total',
      help: "Actions whose sealed secrets the reviewer could not open (judged with their redaction markers), by reason.",
      labelNames: ['reason'],
    });
  }

  async open(action: ProposedAction): Promise<ProposedAction> {
    // Nearly every action holds no secret: it is not copied.
    if (action.sealed === undefined) return action;
    const { sealed, ...redacted } = action;
    try {
      return await this.opened(redacted, sealed, false);
    } catch (error) {
      const reason = error instanceof SealError ? 'sealed_for_another_key' : 'no_key';
      this.unopened.inc({ reason });
      this.logger.warn({ action_id: action.action_id, reason: (error as Error).message }, 'sealed secrets not opened: the action is judged with its redaction markers');
      return redacted;
    }
  }

  private async opened(redacted: ProposedAction, sealed: string, reloaded: boolean): Promise<ProposedAction> {
    const keys = await this.keyring.current();
    if (!keys) throw new Error(`no seal key in the warden_seal bucket (run \`warden provision\`)`);
    try {
      return openSealed(redacted, sealed, keys);
    } catch (error) {
      // A pair made anew since this replica read it: read it again, once.
      if (reloaded || !(error instanceof SealError)) throw error;
      this.keyring.reload();
      return this.opened(redacted, sealed, true);
    }
  }
}
