import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ScheduledSweep } from '@market/server-kit';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';
import { PAYMENT_PROVIDER, ProviderError, type PaymentProvider } from './payment-provider';
import { PaymentIntentsRepository } from './payment-intents.repository';
import { PaymentEventsHandler } from './payment-events.handler';
import { SandboxProvider } from './sandbox.provider';

const REDELIVER_AFTER_MS = 5_000;

/**
 * Cancels card holds past their capture deadline (authorisation + 7 days, D11) every HOLD_SWEEP_MS and at start: the
 * provider cancels (reason `expired`) and its event makes the invoice payable again (hold_expired) and writes
 * invoice.hold_expired for the buyer's email. Also retries the sandbox's undelivered events. One replica at a time
 * runs it (ADR 0046); were two to overlap, a second cancel is refused by the provider and changes nothing.
 */
@Injectable()
export class HoldExpirySweep extends ScheduledSweep<number> {
  constructor(
    private readonly intents: PaymentIntentsRepository,
    private readonly events: PaymentEventsHandler,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(BILLING_CONFIG) config: Pick<BillingConfig, 'HOLD_SWEEP_MS'>,
    dataSource?: DataSource,
  ) {
    super({ label: 'Hold sweep', context: 'HoldExpirySweep', intervalMs: config.HOLD_SWEEP_MS, onFailure: 0, lock: dataSource });
  }

  /** Cancels the holds past their deadline; answers how many it canceled. */
  protected async work(now: Date): Promise<number> {
    if (this.provider instanceof SandboxProvider) await this.provider.redeliver(new Date(Date.now() - REDELIVER_AFTER_MS));
    let canceled = 0;
    for (const providerIntentId of await this.intents.lapsedHolds(now)) {
      try {
        await this.provider.cancel(providerIntentId, 'expired');
        canceled += 1;
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
      }
      // Whether this replica or another canceled it, bring the local intent and invoice up to date.
      await this.events.sync(providerIntentId);
    }
    if (canceled > 0) this.logger.log(`${canceled} card holds expired uncaptured`);
    return canceled;
  }
}
