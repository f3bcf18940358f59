import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventPayloads } from '@market/contracts';
import { appendEvent } from '@market/server-kit';

const BIDDERS_PER_EVENT = 500;

/**
 * An admin's cancellation of a listing, as the sale sees it (ADR 0042): the only place that ends a sale for that
 * reason. It runs in the listing.cancelled consumer's transaction, so the ended sale, the rejected bids and the
 * auction.cancelled event that tells the bidders commit together, once.
 */
@Injectable()
export class ListingCancellationsRepository {
  /**
   * Ends the sale for good, like a deletion (a tombstone no later listing event can reopen), rejects its open bids and
   * writes auction.cancelled naming everyone who bid. A sale that completed before the cancellation arrived stands.
   */
  async cancel(event: EventPayloads['listing.cancelled'], manager: EntityManager): Promise<'cancelled' | 'already_sold'> {
    const [sale]: { winning_bid_id: string | null }[] = await manager.query(
      `SELECT winning_bid_id FROM auctions WHERE listing_id = $1 FOR UPDATE`,
      [event.listing_id],
    );
    if (sale?.winning_bid_id) return 'already_sold';
    await manager.query(
      `INSERT INTO auctions (listing_id, seller_id, title, listing_type, auction_type, status, starting_price, source_updated_at, closed_at)
       VALUES ($1, $2, $3, 'auction', 'auto', 'deleted', 1, 'infinity', $4)
       ON CONFLICT (listing_id) DO UPDATE SET status = 'deleted', source_updated_at = 'infinity',
         closed_at = COALESCE(auctions.closed_at, $4), updated_at = now()`,
      [event.listing_id, event.seller_id, event.listing_title, event.cancelled_at],
    );
    // Void bids leave the public history too, as withdrawn ones do (ADR 0038): the listing page shows no price no one pays.
    await manager.query(
      `UPDATE bids SET status = 'rejected', decided_at = $2, withdrawn_at = CASE WHEN kind = 'bid' THEN $2::timestamptz END
       WHERE listing_id = $1 AND status = 'pending'`,
      [event.listing_id, event.cancelled_at],
    );
    const bidders: { bidder_id: string }[] = await manager.query(
      `SELECT DISTINCT bidder_id FROM bids WHERE listing_id = $1 AND bidder_id <> $2 ORDER BY bidder_id`,
      [event.listing_id, event.seller_id],
    );
    const ids = bidders.map((b) => b.bidder_id);
    // One event per 500 bidders (a message stays far below NATS's payload limit); the first also tells the seller.
    for (let start = 0; start === 0 || start < ids.length; start += BIDDERS_PER_EVENT) {
      await appendEvent(manager, 'auction.cancelled', {
        listing_id: event.listing_id,
        listing_title: event.listing_title,
        seller_id: event.seller_id,
        reason: event.reason,
        bidder_ids: ids.slice(start, start + BIDDERS_PER_EVENT),
        notify_seller: start === 0,
        cancelled_at: event.cancelled_at,
      });
    }
    return 'cancelled';
  }
}
