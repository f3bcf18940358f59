import type { EntityManager } from 'typeorm';
import { centsToDollars } from '@market/domain';
import { appendEvent } from '@market/server-kit';
import { INVOICE_COLUMNS, type InvoiceRecord } from './invoices.repository';
import { KIND_OF } from './unpaid-sales.repository';

/**
 * Announces a sale whose held funds went back to the buyer (a refund, a canceled hold, a disputed hold that lapsed;
 * D22, ADR 0063), in the transaction that cancelled its invoice: sale.lapsed with the reason `refunded` and no strike,
 * so bidding unwinds it as it unwinds an unpaid one (ADR 0043) and the listing never stays sold with no way out.
 */
export async function announceHeldSaleEnded(manager: EntityManager, invoiceId: string, at: Date): Promise<void> {
  const [invoice]: InvoiceRecord[] = await manager.query(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = $1`, [invoiceId]);
  await appendEvent(manager, 'sale.lapsed', {
    invoice_id: invoice.id,
    invoice_number: invoice.invoice_number,
    listing_id: invoice.listing_id,
    bid_id: invoice.bid_id,
    buyer_id: invoice.buyer_id,
    seller_id: invoice.seller_id,
    website_title: invoice.website_title,
    kind: KIND_OF[invoice.sale_type],
    amount: centsToDollars(invoice.amount_cents),
    lapsed_at: at.toISOString(),
    reason: 'refunded',
    strike: false,
    note: null,
  });
}
