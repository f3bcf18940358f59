import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventPayloads } from '@market/contracts';
import { LISTING_COLUMNS, type ListingRecord } from './listings.repository';

/**
 * Sales the bidding service took back (ADR 0043). "Sold is final" has this one exception: a sale whose invoice lapsed
 * unpaid or an admin cancelled returns the listing to sale (or to ended, for the seller's second chance), and the
 * unwound bid is remembered so that no late event of that sale sells the listing again.
 */
@Injectable()
export class UnwoundSalesRepository {
  /** True when `bidId` won a sale that has since been unwound: its sale events change nothing. */
  async isUnwound(bidId: string | null, manager: EntityManager): Promise<boolean> {
    if (!bidId) return false;
    const rows: unknown[] = await manager.query('SELECT 1 FROM unwound_sales WHERE bid_id = $1', [bidId]);
    return rows.length > 0;
  }

  /** Remembers the unwound bid; false when it was already (a redelivery). */
  async record(event: EventPayloads['sale.unwound'], manager: EntityManager): Promise<boolean> {
    const inserted: unknown[] = await manager.query(
      `INSERT INTO unwound_sales (bid_id, listing_id, reason, unwound_at) VALUES ($1, $2, $3, $4) ON CONFLICT (bid_id) DO NOTHING RETURNING bid_id`,
      [event.bid_id, event.listing_id, event.reason, event.unwound_at],
    );
    return inserted.length > 0;
  }

  /**
   * Sets the listing's status and its recomputed public price (an auction's; versioned like auction.repriced). A listing
   * that is not sold, live or ended (cancelled, deleted) is left as it is (null).
   */
  async reopen(event: EventPayloads['sale.unwound'], manager: EntityManager): Promise<ListingRecord | null> {
    const [rows] = (await manager.query(
      `UPDATE listings SET status = $2,
         current_bid = CASE WHEN listing_type = 'auction' THEN $3::bigint ELSE current_bid END,
         bid_count = CASE WHEN listing_type = 'auction' THEN $4::int ELSE bid_count END,
         price_version = GREATEST(price_version, $5::int), updated_at = now()
       WHERE id = $1 AND status IN ('sold', 'active', 'expired') RETURNING ${LISTING_COLUMNS}`,
      [event.listing_id, event.status, event.current_bid, event.bid_count, event.price_version],
    )) as [ListingRecord[], number];
    return rows[0] ?? null;
  }
}
