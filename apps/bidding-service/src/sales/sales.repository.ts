import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { PENDING_BID_DAYS_AFTER_CLOSE } from '@market/domain';
import { BID_COLUMNS, type BidRecord } from '../auctions/auction.records';
import { leadingBidOrder } from '../auctions/auction-maximums.repository';

// Statuses in which a sale is over; in any other (active, paused, and a draft or pending listing that still has an end)
// it ends at its end, so its bids never hang.
const ENDED = `('sold', 'expired', 'deleted')`;

/**
 * The rows of a sale's end (D8): reads and writes only, in the caller's transaction where one is given (EndSales
 * decides, ADR 0070). The unique index on accepted bids is the last guard against a second winner.
 */
@Injectable()
export class SalesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The listing a bid or offer belongs to; null when there is no such bid. */
  async listingOfBid(bidId: string, manager: EntityManager): Promise<string | null> {
    const [found]: { listing_id: string }[] = await manager.query('SELECT listing_id FROM bids WHERE id = $1', [bidId]);
    return found?.listing_id ?? null;
  }

  /** A bid or offer, locked for the rest of the transaction (after its auction's row: the order every path keeps). */
  async lockBid(bidId: string, manager: EntityManager): Promise<BidRecord | null> {
    const [bid]: BidRecord[] = await manager.query(`SELECT ${BID_COLUMNS} FROM bids WHERE id = $1 FOR UPDATE`, [bidId]);
    return bid ?? null;
  }

  /**
   * The pending bid a close sells to (D8): the highest, of equal amounts the higher then earlier maximum (ADR 0055),
   * never a removed member's (ADR 0038), even before the moderation sweep has reached this auction.
   */
  async highestEligibleBid(listingId: string, manager: EntityManager): Promise<BidRecord | null> {
    const [highest]: BidRecord[] = await manager.query(
      `SELECT ${BID_COLUMNS} FROM bids WHERE id = (
         SELECT b.id FROM bids b LEFT JOIN auction_maximums mx ON mx.listing_id = b.listing_id AND mx.bidder_id = b.bidder_id
         WHERE b.listing_id = $1 AND b.status = 'pending' AND b.kind = 'bid'
           AND NOT EXISTS (SELECT 1 FROM member_states m WHERE m.user_id = b.bidder_id AND m.status <> 'active')
         ORDER BY ${leadingBidOrder('b', 'mx')} LIMIT 1)`,
      [listingId],
    );
    return highest ?? null;
  }

  /** Marks a sale expired at `now`; returns how many of its bids and offers still wait for the seller. */
  async markExpired(listingId: string, now: Date, manager: EntityManager): Promise<number> {
    await manager.query(`UPDATE auctions SET status = 'expired', closed_at = $2, updated_at = now() WHERE listing_id = $1`, [listingId, now]);
    const [{ pending }]: { pending: number }[] = await manager.query(`SELECT count(*)::int AS pending FROM bids WHERE listing_id = $1 AND status = 'pending'`, [listingId]);
    return pending;
  }

  /** Rejects one bid or offer; a public bid leaves the auction's history with its price (ADR 0038), an offer never was in it. */
  async rejectBid(bidId: string, now: Date, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE bids SET status = 'rejected', decided_at = $2, withdrawn_at = CASE WHEN kind = 'bid' THEN $2::timestamptz END WHERE id = $1`, [bidId, now]);
  }

  /**
   * Marks the sale sold to `winnerId`, rejecting every other pending bid: the losing bids stay in its history, a removed
   * member's (not yet swept) leaves it (ADR 0038).
   */
  async markSold(listingId: string, winnerId: string, now: Date, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE bids SET status = 'accepted', decided_at = $2 WHERE id = $1`, [winnerId, now]);
    await manager.query(
      `UPDATE bids SET status = 'rejected', decided_at = $2, withdrawn_at = CASE WHEN EXISTS (
         SELECT 1 FROM member_states m WHERE m.user_id = bids.bidder_id AND m.status <> 'active') THEN $2::timestamptz END
       WHERE listing_id = $1 AND status = 'pending'`,
      [listingId, now],
    );
    await manager.query(
      `UPDATE auctions SET status = 'sold', winning_bid_id = $2, closed_at = COALESCE(closed_at, $3), updated_at = now() WHERE listing_id = $1`,
      [listingId, winnerId, now],
    );
  }

  /** A sale's winning bid's status and decision time, locked (after its auction's row). */
  async lockWinner(bidId: string, manager: EntityManager): Promise<{ status: string; decided_at: Date | null } | null> {
    const [winner]: { status: string; decided_at: Date | null }[] = await manager.query('SELECT status, decided_at FROM bids WHERE id = $1 FOR UPDATE', [bidId]);
    return winner ?? null;
  }

  /** Rejects a sale's winning bid with why (ADR 0043); a public bid leaves the history too, as a rejected one does (ADR 0038). */
  async rejectWinner(bidId: string, rejection: 'lapsed' | 'sale_cancelled', now: Date, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE bids SET status = 'rejected', rejection = $2, decided_at = $3, withdrawn_at = CASE WHEN kind = 'bid' THEN $3::timestamptz END WHERE id = $1`, [
      bidId,
      rejection,
      now,
    ]);
  }

  /**
   * The bids a sale turned down (rejected in its transaction, so at its moment `soldAt`) stand again, but not the
   * winning bid, nor the lapsed buyer's own, nor those of a member removed since (ADR 0038).
   */
  async restoreTurnedDown(listingId: string, soldAt: Date | null, winnerId: string, buyerId: string, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE bids SET status = 'pending', decided_at = NULL
       WHERE listing_id = $1 AND status = 'rejected' AND rejection IS NULL AND decided_at = $2 AND id <> $3 AND bidder_id <> $4
         AND NOT EXISTS (SELECT 1 FROM member_states m WHERE m.user_id = bids.bidder_id AND m.status <> 'active')`,
      [listingId, soldAt, winnerId, buyerId],
    );
  }

  /** A sold sale without its winner again, `status` from `now`: no listing event older than `now` overwrites it. */
  async reopen(listingId: string, status: 'active' | 'expired', closedAt: Date | null, now: Date, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE auctions SET status = $2, winning_bid_id = NULL, closed_at = $3, source_updated_at = GREATEST(source_updated_at, $4), updated_at = now()
       WHERE listing_id = $1`,
      [listingId, status, closedAt, now],
    );
  }

  /** An auction's public price, count, price version and how many bids and offers wait for the seller. */
  async standingOf(listingId: string, manager: EntityManager): Promise<{ current_bid: number | null; bid_count: number; price_version: number; pending: number }> {
    const [after]: { current_bid: number | null; bid_count: number; price_version: number; pending: number }[] = await manager.query(
      `SELECT current_bid::float8 AS current_bid, bid_count, price_version,
         (SELECT count(*)::int FROM bids WHERE listing_id = $1 AND status = 'pending') AS pending
       FROM auctions WHERE listing_id = $1`,
      [listingId],
    );
    return after;
  }

  /** Live sales whose end has passed (the sweep closes them if their job was lost). */
  async dueListingIds(now: Date, limit: number): Promise<string[]> {
    const rows: { listing_id: string }[] = await this.dataSource.query(
      `SELECT listing_id FROM auctions WHERE status NOT IN ${ENDED} AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => r.listing_id);
  }

  /** Live sales with an end, in listing id order after `afterId`, for re-creating their close jobs. */
  liveEnds(afterId: string | null, limit: number): Promise<{ listing_id: string; expires_at: Date }[]> {
    return this.dataSource.query(
      `SELECT listing_id, expires_at FROM auctions WHERE status NOT IN ${ENDED} AND expires_at IS NOT NULL
         AND ($1::uuid IS NULL OR listing_id > $1::uuid) ORDER BY listing_id LIMIT $2`,
      [afterId, limit],
    );
  }

  /** Rejects pending bids of sales that ended unsold more than the seller's window ago (D8); returns how many. */
  async rejectLapsed(now: Date): Promise<number> {
    const [, count]: [unknown, number] = await this.dataSource.query(
      `UPDATE bids SET status = 'rejected', decided_at = $1 FROM auctions a
       WHERE bids.listing_id = a.listing_id AND bids.status = 'pending' AND a.closed_at IS NOT NULL
         AND a.closed_at <= $1::timestamptz - make_interval(days => $2::int)`,
      [now, PENDING_BID_DAYS_AFTER_CLOSE],
    );
    return count;
  }
}
