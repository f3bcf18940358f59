import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventPayloads } from '@market/contracts';
import { centsToDollars, saleTypeOf } from '@market/domain';
import { appendEvent, EventConsumers, SettingsClient } from '@market/server-kit';
import { InvoicesRepository } from './invoices.repository';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../payments/payment-provider';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';

/**
 * Invoices every sale (D10) from bid.accepted, which the bidding service writes exactly once per listing (ADR 0017).
 * Idempotent twice over: a redelivered event is skipped by processed_events, and a second event for the same sale
 * finds the invoice already made (unique bid and listing).
 */
@Injectable()
export class SaleEventsHandler implements OnApplicationBootstrap {
  private readonly logger = new Logger('SaleEventsHandler');

  constructor(
    private readonly consumers: EventConsumers,
    private readonly invoices: InvoicesRepository,
    private readonly settings: SettingsClient,
    @Inject(PAYMENT_PROVIDER) private readonly provider: Pick<PaymentProvider, 'name'>,
    @Inject(BILLING_CONFIG) private readonly config: Pick<BillingConfig, 'PAYMENT_WINDOW_HOURS'>,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('bid.accepted', (event, manager) => this.onBidAccepted(event.payload, manager));
  }

  /** Makes the sale's invoice with the success fee in force now (D10: a change applies to later invoices only). */
  async onBidAccepted(sale: EventPayloads['bid.accepted'], manager: EntityManager, now = new Date()): Promise<void> {
    const { success_fee } = await this.settings.get();
    const { invoice, created } = await this.invoices.createForSale(
      {
        bid_id: sale.bid_id,
        listing_id: sale.listing_id,
        buyer_id: sale.buyer_id,
        seller_id: sale.seller_id,
        website_title: sale.listing_title,
        website_url: sale.website_url ?? null,
        sale_type: saleTypeOf(sale.sale, sale.kind),
        amount: sale.amount,
        success_fee_percent: success_fee,
        // Every sale binds its buyer to pay within the window, however it was made (ADR 0043).
        payment_window_hours: this.config.PAYMENT_WINDOW_HOURS,
      },
      now,
      manager,
    );
    if (!created) return;
    this.logger.log(`Invoice ${invoice.invoice_number} for listing ${sale.listing_id} (${invoice.sale_type})`);
    // Same transaction as the invoice: the buyer is told of exactly the invoices that exist (D19).
    await appendEvent(manager, 'invoice.issued', {
      invoice_id: invoice.id,
      invoice_number: invoice.invoice_number,
      buyer_id: invoice.buyer_id,
      seller_id: invoice.seller_id,
      website_title: invoice.website_title,
      total_amount: centsToDollars(invoice.amount_cents),
      due_date: invoice.due_date.toISOString(),
      issued_at: invoice.created_at.toISOString(),
      // The email says no real money moves while the sandbox runs the payments (ADR 0033).
      test_mode: this.provider.name === 'sandbox',
    });
  }
}
