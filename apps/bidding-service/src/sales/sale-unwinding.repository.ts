import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventPayloads } from '@market/contracts';
import { appendEvent } from '@market/server-kit';
import { AuctionsRepository, type AuctionRecord } from '../auctions/auctions.repository';
import { StandingBidsRepository } from './standing-bids.repository';

export type UnwindResult = { unwound: true; status: 'active' | 'expired'; expires_at: Date | null } | { unwound: false };

/**
 * Unwinds a sale whose invoice lapsed unpaid or was cancelled (ADR 0043), in the sale.lapsed consumer's transaction:
 * the only path that takes a sale back. Under the auction's lock (the order every sale path uses) the winning bid is
 * rejected with its reason, the bids the sale turned down come back, and the sale is live again until its end, or
 * ended with those bids open for the seller's second chance (accept after close, D8). sale.unwound tells listings.
 */
@Injectable()
export class SaleUnwindingRepository {
  constructor(
    private readonly auctions: AuctionsRepository,
    private readonly standing: StandingBidsRepository,
  ) {}

  /** Records the buyer's strike (once per invoice) and unwinds the sale if `bid_id` is still its winner. */
  async unwind(event: EventPayloads['sale.lapsed'], manager: EntityManager, now = new Date()): Promise<UnwindResult> {
    if (event.strike) {
      await manager.query(
        `INSERT INTO buyer_strikes (invoice_id, buyer_id, listing_id, bid_id, struck_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (invoice_id) DO NOTHING`,
        [event.invoice_id, event.buyer_id, event.listing_id, event.bid_id, event.lapsed_at],
      );
    }
    const auction = await this.auctions.lock(event.listing_id, manager);
    const [winner]: { status: string; decided_at: Date | null }[] = await manager.query('SELECT status, decided_at FROM bids WHERE id = $1 FOR UPDATE', [
      event.bid_id,
    ]);
    // Already unwound (a redelivery), or a sale this service does not know as won by that bid: nothing to take back.
    if (!auction || !winner || winner.status !== 'accepted' || auction.winning_bid_id !== event.bid_id) return { unwound: false };
    // A lapsed winning bid leaves the auction like a rejected one: out of the public history too (ADR 0038).
    await manager.query(`UPDATE bids SET status = 'rejected', rejection = $2, decided_at = $3, withdrawn_at = CASE WHEN kind = 'bid' THEN $3::timestamptz END WHERE id = $1`, [
      event.bid_id,
      event.reason === 'unpaid' ? 'lapsed' : 'sale_cancelled',
      now,
    ]);
    // The bids the sale itself turned down (rejected in its transaction, so at its moment) stand again, but not the
    // lapsed buyer's own, nor those of a member removed since (ADR 0038).
    await manager.query(
      `UPDATE bids SET status = 'pending', decided_at = NULL
       WHERE listing_id = $1 AND status = 'rejected' AND rejection IS NULL AND decided_at = $2 AND id <> $3 AND bidder_id <> $4
         AND NOT EXISTS (SELECT 1 FROM member_states m WHERE m.user_id = bids.bidder_id AND m.status <> 'active')`,
      [event.listing_id, winner.decided_at, event.bid_id, event.buyer_id],
    );
    const live = auction.expires_at !== null && auction.expires_at.getTime() > now.getTime();
    const status = live ? 'active' : 'expired';
    // A listing event older than this moment (the listing's own `sold` announcement) can no longer overwrite it.
    await manager.query(
      `UPDATE auctions SET status = $2, winning_bid_id = NULL, closed_at = $3, source_updated_at = GREATEST(source_updated_at, $4), updated_at = now()
       WHERE listing_id = $1`,
      [event.listing_id, status, live ? null : now, now],
    );
    const reopened: AuctionRecord = { ...auction, status, winning_bid_id: null, closed_at: live ? null : now };
    await this.standing.reprice(reopened, 'bid_rejected', now, manager, event.buyer_id);
    const [after]: { current_bid: number | null; bid_count: number; price_version: number; pending: number }[] = await manager.query(
      `SELECT current_bid::float8 AS current_bid, bid_count, price_version,
         (SELECT count(*)::int FROM bids WHERE listing_id = $1 AND status = 'pending') AS pending
       FROM auctions WHERE listing_id = $1`,
      [event.listing_id],
    );
    await appendEvent(manager, 'sale.unwound', {
      listing_id: event.listing_id,
      listing_title: auction.title,
      bid_id: event.bid_id,
      buyer_id: event.buyer_id,
      seller_id: auction.seller_id,
      status,
      expires_at: auction.expires_at?.toISOString() ?? null,
      current_bid: after.current_bid,
      bid_count: after.bid_count,
      price_version: after.price_version,
      pending_bids: after.pending,
      reason: event.reason,
      unwound_at: now.toISOString(),
    });
    return { unwound: true, status, expires_at: auction.expires_at };
  }
}
