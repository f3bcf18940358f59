import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { ProxyStandingBid } from '@market/domain';

export type MemberStatus = 'active' | 'suspended' | 'deleted';

/**
 * The rows of bids leaving auctions without a sale and of members' moderation states (ADR 0038): reads and writes only;
 * StandingBids decides (ADR 0070).
 */
@Injectable()
export class StandingBidsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** An auction's standing (pending) public bids. */
  pendingBids(listingId: string, manager: EntityManager): Promise<ProxyStandingBid[]> {
    return manager.query(
      `SELECT id, bidder_id, amount::float8 AS amount, created_at, automatic FROM bids WHERE listing_id = $1 AND status = 'pending' AND kind = 'bid'`,
      [listingId],
    );
  }

  /** Takes bids out of the history (rejected and withdrawn at `now`). */
  async withdraw(bidIds: string[], now: Date, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE bids SET status = 'rejected', decided_at = $2, withdrawn_at = $2 WHERE id = ANY($1::uuid[])`, [bidIds, now]);
  }

  /** Records an automatic bid for a bidder's maximum (ADR 0055). */
  async addAutomatic(listingId: string, bidderId: string, amount: number, manager: EntityManager): Promise<void> {
    await manager.query(`INSERT INTO bids (id, listing_id, bidder_id, kind, amount, automatic) VALUES ($1, $2, $3, 'bid', $4, true)`, [randomUUID(), listingId, bidderId, amount]);
  }

  /** Writes an auction's public price and count; returns its new price version (ADR 0038). */
  async writePrice(listingId: string, currentBid: number | null, bidCount: number, manager: EntityManager): Promise<number> {
    // PostgreSQL answers an UPDATE ... RETURNING with [rows, count].
    const [[{ price_version }]]: [{ price_version: number }[], number] = await manager.query(
      `UPDATE auctions SET current_bid = $2, bid_count = $3, price_version = price_version + 1, updated_at = now() WHERE listing_id = $1 RETURNING price_version`,
      [listingId, currentBid, bidCount],
    );
    return price_version;
  }

  /**
   * Records a member's moderation state as auth-service announced it, in its own transaction so that every bid placed
   * after it sees it; an older announcement never overwrites a newer one and a deletion is final. Returns the member's
   * state as it now stands.
   */
  async recordMember(userId: string, status: MemberStatus, at: Date): Promise<MemberStatus> {
    await this.dataSource.query(
      `INSERT INTO member_states (user_id, status, changed_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET status = EXCLUDED.status, changed_at = EXCLUDED.changed_at
       WHERE member_states.status <> 'deleted' AND (EXCLUDED.status = 'deleted' OR member_states.changed_at < EXCLUDED.changed_at)`,
      [userId, status, at],
    );
    // A statement of its own: it sees the row whichever announcement (this one or one racing it) wrote it.
    const [row]: { status: MemberStatus }[] = await this.dataSource.query('SELECT status FROM member_states WHERE user_id = $1', [userId]);
    return row.status;
  }

  /** The auctions where the member has pending bids or offers, in listing id order. */
  async listingsWithPending(userId: string): Promise<string[]> {
    const rows: { listing_id: string }[] = await this.dataSource.query(`SELECT DISTINCT listing_id FROM bids WHERE bidder_id = $1 AND status = 'pending' ORDER BY listing_id`, [userId]);
    return rows.map((row) => row.listing_id);
  }

  /** Rejects and withdraws the member's pending bids and offers on one auction; returns how many. */
  async rejectMemberBids(listingId: string, userId: string, now: Date, manager: EntityManager): Promise<number> {
    const [, rejected]: [unknown, number] = await manager.query(
      `UPDATE bids SET status = 'rejected', decided_at = $3, withdrawn_at = $3 WHERE listing_id = $1 AND bidder_id = $2 AND status = 'pending'`,
      [listingId, userId, now],
    );
    return rejected;
  }

  /** The seller's sales not sold and not deleted, in listing id order. */
  async unsoldSalesOf(sellerId: string): Promise<string[]> {
    const rows: { listing_id: string }[] = await this.dataSource.query(
      `SELECT listing_id FROM auctions WHERE seller_id = $1 AND status NOT IN ('sold', 'deleted') AND winning_bid_id IS NULL ORDER BY listing_id`,
      [sellerId],
    );
    return rows.map((row) => row.listing_id);
  }

  /** Makes a sale a tombstone no listing event brings back and no close sells, its pending bids rejected (D17, ADR 0038). */
  async endForGood(listingId: string, now: Date, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE auctions SET status = 'deleted', source_updated_at = 'infinity', closed_at = COALESCE(closed_at, $2), updated_at = now() WHERE listing_id = $1`,
      [listingId, now],
    );
    await manager.query(`UPDATE bids SET status = 'rejected', decided_at = $2 WHERE listing_id = $1 AND status = 'pending'`, [listingId, now]);
  }
}
