import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';
import { collectedGauge, scrapeRead } from '@market/server-kit';
import { BillingCountsRepository } from './billing-counts.repository';

/**
 * Business gauges of billing (ADR 0048): invoices by status, held funds and hold deadlines, and escrow, payouts and the
 * ledger's reconciliation (D22), read on scrape.
 */
@Injectable()
export class BillingMetrics implements OnApplicationShutdown {
  private readonly removers: (() => void)[];

  constructor(counts: BillingCountsRepository, @Inject(BILLING_CONFIG) config: Pick<BillingConfig, 'ESCROW_CAPTURE_LEAD_HOURS'>) {
    const holds = scrapeRead(() => counts.holds());
    const invoices = scrapeRead(() => counts.invoicesByStatus());
    const escrow = scrapeRead(() => counts.escrow(config.ESCROW_CAPTURE_LEAD_HOURS));
    this.removers = [
      collectedGauge({ name: 'market_escrow_held_cents', help: 'Money held in escrow for invoices by the ledger (card holds and captured funds), in cents (USD)' }, async () => [
        { labels: {}, value: (await escrow()).escrowCents },
      ]),
      collectedGauge({ name: 'market_holds_capture_overdue', help: 'Card holds the escrow sweep should have captured by now (their 7-day deadline is within the capture lead)' }, async () => [
        { labels: {}, value: (await escrow()).captureOverdue },
      ]),
      collectedGauge({ name: 'market_payouts_unsent', help: 'Payouts released and not yet sent, by status (waiting_for_account, pending)', labelNames: ['status'] }, async () =>
        (await escrow()).unsent.map((row) => ({ labels: { status: row.status }, value: row.count })),
      ),
      collectedGauge({ name: 'market_ledger_unreconciled', help: "Open differences between the ledger and the provider's balance transactions" }, async () => [
        { labels: {}, value: (await escrow()).unreconciled },
      ]),
      collectedGauge({ name: 'market_ledger_reconciled_age_seconds', help: 'Seconds since the ledger was last reconciled with the provider; absent before the first run' }, async () => {
        const since = (await escrow()).sinceReconciled;
        return since === null ? [] : [{ labels: {}, value: since }];
      }),
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
