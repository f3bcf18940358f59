import { z } from 'zod';
import { id, text, time, dollars, count } from './fields.schemas';

/** An unpaid sale ending (ADR 0043): billing lapses it, bidding unwinds it. */
export const SALE_EVENTS = {
  /**
   * A sale ended before its money reached the seller: an unpaid one (ADR 0043) whose payment window passed with no card
   * authorised (`unpaid`) or that an admin cancelled (`admin_cancelled`, with the admin's reason), or one whose held
   * funds went back to the buyer (`refunded`: a refund, a canceled hold, or a disputed hold that lapsed; D22, ADR 0063).
   * The invoice is cancelled in the same transaction; bidding unwinds the sale and records a strike against the buyer
   * when `strike` is true.
   */
  'sale.lapsed': z.object({
    invoice_id: id,
    invoice_number: text,
    listing_id: id,
    bid_id: id,
    buyer_id: id,
    seller_id: id,
    website_title: text,
    kind: z.enum(['bid', 'offer', 'buy_now']),
    amount: dollars,
    lapsed_at: time,
    reason: z.enum(['unpaid', 'admin_cancelled', 'refunded']),
    strike: z.boolean(),
    /** The admin's reason for a cancellation; null for a lapse. Sealed for notifications-service (ADR 0066): bidding never has it. */
    note: text.nullable().optional(),
  }),
  /**
   * bidding-service unwound a sale whose invoice lapsed or was cancelled (ADR 0043): the winning bid is rejected, the
   * listing is on sale again (`active`, until its end) or ended (`expired`, its open bids the seller's second chance),
   * with the auction's recomputed public price at `price_version`. listings-service never lets `bid_id` sell it again.
   */
  'sale.unwound': z.object({
    listing_id: id,
    listing_title: text,
    bid_id: id,
    buyer_id: id,
    seller_id: id,
    status: z.enum(['active', 'expired']),
    expires_at: time.nullable(),
    current_bid: dollars.nullable(),
    bid_count: count,
    price_version: count,
    /** Bids still open after the unwinding: on an ended sale the seller may accept one for 7 days (D8). */
    pending_bids: count,
    reason: z.enum(['unpaid', 'admin_cancelled', 'refunded']),
    unwound_at: time,
  }),
  /**
   * A sale's money reached the seller: its payout was sent and the invoice is paid (D22), written in the same
   * transaction. No money in it: listings-service keeps it as the sale both parties may review for 60 days and that
   * counts in the seller's sales completed (D23, ADR 0083); notifications-service asks each party for a review.
   */
  'sale.completed': z.object({
    invoice_id: id,
    invoice_number: text,
    listing_id: id,
    buyer_id: id,
    seller_id: id,
    website_title: text,
    completed_at: time,
  }),
};
