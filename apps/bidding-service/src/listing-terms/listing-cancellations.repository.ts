import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventPayloads } from '@market/contracts';

/** The rows of an admin's cancellation of a listing as the sale sees it (ADR 0042): reads and writes only (CancelSale decides). */
@Injectable()
export class ListingCancellationsRepository {
  /** The sale's winning bid, if any, with the auction's row locked (a sale not yet heard of has none). */
  async lockWinner(listingId: string, manager: EntityManager): Promise<string | null> {
    const [sale]: { winning_bid_id: string | null }[] = await manager.query(`SELECT winning_bid_id FROM auctions WHERE listing_id = $1 FOR UPDATE`, [listingId]);
    return sale?.winning_bid_id ?? null;
  }

  /**
   * Ends the sale for good, like a deletion (a tombstone no later listing event can reopen), and rejects its open bids:
   * void bids leave the public history too, as withdrawn ones do (ADR 0038), so the listing page shows no price no one pays.
   */
  async endCancelled(event: EventPayloads['listing.cancelled'], manager: EntityManager): Promise<void> {
    await manager.query(
      `INSERT INTO auctions (listing_id, seller_id, title, listing_type, auction_type, status, starting_price, source_updated_at, closed_at)
       VALUES ($1, $2, $3, 'auction', 'auto', 'deleted', 1, 'infinity', $4)
       ON CONFLICT (listing_id) DO UPDATE SET status = 'deleted', source_updated_at = 'infinity',
         closed_at = COALESCE(auctions.closed_at, $4), updated_at = now()`,
      [event.listing_id, event.seller_id, event.listing_title, event.cancelled_at],
    );
    await manager.query(
      `UPDATE bids SET status = 'rejected', decided_at = $2, withdrawn_at = CASE WHEN kind = 'bid' THEN $2::timestamptz END
       WHERE listing_id = $1 AND status = 'pending'`,
      [event.listing_id, event.cancelled_at],
    );
  }

  /** Everyone but the seller who ever bid or offered on the listing, in id order. */
  async biddersOf(listingId: string, sellerId: string, manager: EntityManager): Promise<string[]> {
    const bidders: { bidder_id: string }[] = await manager.query(`SELECT DISTINCT bidder_id FROM bids WHERE listing_id = $1 AND bidder_id <> $2 ORDER BY bidder_id`, [listingId, sellerId]);
    return bidders.map((b) => b.bidder_id);
  }
}
