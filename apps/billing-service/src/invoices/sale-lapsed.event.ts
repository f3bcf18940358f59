import type { EventPayloads } from '@market/contracts';
import { centsToDollars } from '@market/domain';
import type { InvoiceRecord } from './invoices.repository';

/** sale.lapsed's `kind` of an invoice's sale type. */
const KIND_OF = { auction_win: 'bid', accepted_offer: 'offer', buy_now: 'buy_now' } as const;

/**
 * The sale.lapsed payload of an invoice whose sale ended unpaid, cancelled or refunded (ADR 0043, 0063): the one place
 * this event is built.
 */
export function saleLapsedPayload(
  invoice: InvoiceRecord,
  ending: Pick<EventPayloads['sale.lapsed'], 'reason' | 'strike' | 'note'>,
  at: Date,
): EventPayloads['sale.lapsed'] {
  return {
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
    reason: ending.reason,
    strike: ending.strike,
    note: ending.note,
  };
}
