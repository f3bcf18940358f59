import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { collectedGauge, scrapeRead } from '@market/server-kit';
import { BillingCountsRepository } from './billing-counts.repository';

/** Business gauges of billing (ADR 0048): invoices by status, held funds and hold deadlines, read on scrape. */
@Injectable()
export class BillingMetrics implements OnApplicationShutdown {
  private readonly removers: (() => void)[];

  constructor(counts: BillingCountsRepository) {
    const holds = scrapeRead(() => counts.holds());
    const invoices = scrapeRead(() => counts.invoicesByStatus());
    this.removers = [
      collectedGauge({ name: 'market_invoices', help: 'Invoices by status', labelNames: ['status'] }, async () =>
        (await invoices()).map((row) => ({ labels: { status: row.status }, value: row.count })),
      ),
      collectedGauge({ name: 'market_holds', help: 'Card holds authorised and not yet captured or released' }, async () => [{ labels: {}, value: (await holds()).holds }]),
      collectedGauge({ name: 'market_held_funds_cents', help: 'Money held on cards awaiting capture, in cents (USD)' }, async () => [
        { labels: {}, value: (await holds()).heldCents },
      ]),
      collectedGauge({ name: 'market_holds_expiring_48h', help: 'Card holds whose capture deadline is within 48 hours (or past)' }, async () => [
        { labels: {}, value: (await holds()).expiringWithin48h },
      ]),
      collectedGauge({ name: 'market_hold_next_deadline_seconds', help: "Seconds until the nearest hold's capture deadline; absent without holds" }, async () => {
        const next = (await holds()).nextDeadlineSeconds;
        return next === null ? [] : [{ labels: {}, value: next }];
      }),
    ];
  }

  onApplicationShutdown() {
    for (const remove of this.removers) remove();
  }
}
