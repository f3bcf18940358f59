import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ScheduledSweep } from '@market/server-kit';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';
import { PAYMENT_PROVIDER, ProviderError, type PaymentProvider } from '../payments/payment-provider';
import { PaymentEventsHandler } from '../payments/payment-events.handler';
import { UnpaidSalesRepository } from './unpaid-sales.repository';
import { EndUnpaidSale } from './end-unpaid-sale';

const BATCH = 200;
const LAPSE = { event: 'payment_window_lapsed', reason: 'unpaid', strike: true, note: null } as const;

/**
 * Lapses unpaid sales past their payment window (ADR 0043) every PAYMENT_WINDOW_SWEEP_MS and at start, on one
 * replica at a time (ADR 0046): each invoice is ended in its own transaction under its lock (one a payment holds is
 * skipped until the next round), and a payment started but never authorised is canceled at the provider afterwards.
 */
@Injectable()
export class PaymentWindowSweep extends ScheduledSweep<number> {
  constructor(
    private readonly sales: UnpaidSalesRepository,
    private readonly ending: EndUnpaidSale,
    private readonly events: PaymentEventsHandler,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(BILLING_CONFIG) config: Pick<BillingConfig, 'PAYMENT_WINDOW_SWEEP_MS'>,
    dataSource?: DataSource,
  ) {
    super({ label: 'Payment window sweep', context: 'PaymentWindowSweep', intervalMs: config.PAYMENT_WINDOW_SWEEP_MS, onFailure: 0, lock: dataSource });
  }

  /** Lapses the unpaid sales past their window; answers how many lapsed. */
  protected async work(now: Date): Promise<number> {
    let lapsed = 0;
    for (const id of await this.sales.lapsedIds(now, BATCH)) {
      const result = await this.ending.end(id, LAPSE, now, { wait: false });
      if (!result.ended) continue;
      lapsed += 1;
      await this.cancelOpen(result.openIntents);
    }
    await this.cancelOpen(await this.sales.lateHolds(BATCH));
    // The outbox relay publishes sale.lapsed on its next poll.
    if (lapsed > 0) this.logger.log(`${lapsed} unpaid sales lapsed`);
    return lapsed;
  }

  /** Cancels payments of an ended sale at the provider, so an authorisation arriving after the end is released. */
  async cancelOpen(providerIntentIds: string[]): Promise<void> {
    for (const intentId of providerIntentIds) {
      try {
        await this.provider.cancel(intentId, 'abandoned');
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
      }
      await this.events.sync(intentId);
    }
  }
}
