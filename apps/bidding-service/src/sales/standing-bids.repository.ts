import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { repriceAuction, repriceWithMaximums, type ProxyRepricedState, type ProxyStandingBid, type RepricedState } from '@market/domain';
import { appendEvent } from '@market/server-kit';
import { AuctionsRepository, type AuctionRecord } from '../auctions/auctions.repository';
import { maximumsOf, resetMaximum } from '../auctions/auction-maximums.repository';

export type MemberStatus = 'active' | 'suspended' | 'deleted';

// Sales whose price no longer moves: a sold one keeps the price it sold at, a deleted one is gone.
const FINAL = ['sold', 'deleted'];
// Sales that have ended: maximums no longer bid there, the seller picks among the bids standing (D8).
const ENDED = ['sold', 'expired', 'deleted'];
// How many times a member's sweep looks again for bids that slipped past the previous look.
const MAX_SWEEP_PASSES = 5;

/**
 * Bids leaving auctions without a sale (ADR 0038): the auction is repriced from the bids still standing in the
 * transaction that rejected them, with its auction.repriced event; and the moderation state of members, which bars a
 * suspended or deleted member's bids. Every path locks the auction row first, as bids and closes do.
 */
@Injectable()
export class StandingBidsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly auctions: AuctionsRepository,
  ) {}

  /**
   * Recomputes a locked auction's public state from its standing (pending) bids and writes auction.repriced with it, in
   * the caller's transaction. Nothing for a fixed-price listing (offers are private) or a sold or deleted sale. The
   * maximum of `leaving` (the bidder whose bid left) falls with it (ADR 0055); a live automatic auction is then
   * repriced from the maximums still standing, the plain rule (the highest bid leads at its amount) serving the rest.
   */
  async reprice(
    auction: AuctionRecord,
    reason: 'bid_rejected' | 'bidder_removed',
    now: Date,
    manager: EntityManager,
    leaving: string | null = null,
  ): Promise<Pick<RepricedState, 'current_bid' | 'bid_count' | 'reserve_met' | 'minimum_next_bid'> | null> {
    if (auction.listing_type !== 'auction' || FINAL.includes(auction.status)) return null;
    if (leaving) await resetMaximum(manager, auction.listing_id, leaving);
    const standing: ProxyStandingBid[] = await manager.query(
      `SELECT id, bidder_id, amount::float8 AS amount, created_at, automatic FROM bids WHERE listing_id = $1 AND status = 'pending' AND kind = 'bid'`,
      [auction.listing_id],
    );
    const proxy = auction.auction_type === 'auto' && auction.closed_at === null && !ENDED.includes(auction.status);
    const state = proxy ? await this.repriceProxy(auction, standing, now, manager) : repriceAuction(auction, standing);
    // PostgreSQL answers an UPDATE ... RETURNING with [rows, count].
    const [[{ price_version }]]: [{ price_version: number }[], number] = await manager.query(
      `UPDATE auctions SET current_bid = $2, bid_count = $3, price_version = price_version + 1, updated_at = now() WHERE listing_id = $1 RETURNING price_version`,
      [auction.listing_id, state.current_bid, state.bid_count],
    );
    await appendEvent(manager, 'auction.repriced', {
      listing_id: auction.listing_id,
      current_bid: state.current_bid,
      bid_count: state.bid_count,
      reserve_met: state.reserve_met,
      price_version,
      reason,
      at: now.toISOString(),
    });
    return state;
  }

  /**
   * The proxy rule from scratch on a live automatic auction (ADR 0055): the leader's automatic bids above the new price
   * leave the history as withdrawn (they only answered a maximum that has left), and the leader gets an automatic bid at
   * the price when none of theirs stands at it, so the close sells to them at it (D8).
   */
  private async repriceProxy(auction: AuctionRecord, standing: ProxyStandingBid[], now: Date, manager: EntityManager): Promise<ProxyRepricedState> {
    const state = repriceWithMaximums(auction, standing, await maximumsOf(manager, auction.listing_id));
    if (state.withdraw.length > 0) {
      await manager.query(`UPDATE bids SET status = 'rejected', decided_at = $2, withdrawn_at = $2 WHERE id = ANY($1::uuid[])`, [state.withdraw, now]);
    }
    if (state.add) {
      await manager.query(`INSERT INTO bids (id, listing_id, bidder_id, kind, amount, automatic) VALUES ($1, $2, $3, 'bid', $4, true)`, [
        randomUUID(),
        auction.listing_id,
        state.add.bidder_id,
        state.add.amount,
      ]);
    }
    return state;
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

  /**
   * Rejects every pending bid and offer of a removed member, one auction per transaction (each locked, repriced and its
   * event written with the rejection), so no auction waits on another. Redelivery finds nothing left and changes
   * nothing. Returns the auctions changed.
   */
  async sweepMember(userId: string, now: Date): Promise<string[]> {
    const changed = new Set<string>();
    // Passes until one finds nothing: a bid that checked the member's state just before it changed and committed after
    // a pass listed the auctions is caught by the next (ADR 0038). Bounded, since new bids are refused meanwhile.
    for (let pass = 0; pass < MAX_SWEEP_PASSES; pass += 1) {
      const listings: { listing_id: string }[] = await this.dataSource.query(
        `SELECT DISTINCT listing_id FROM bids WHERE bidder_id = $1 AND status = 'pending' ORDER BY listing_id`,
        [userId],
      );
      let swept = 0;
      for (const { listing_id } of listings) {
        const done = await this.auctions.transaction(async (manager) => {
          const auction = await this.auctions.lock(listing_id, manager);
          if (!auction) return false;
          // A reactivation that came in meanwhile stops the sweep: the member's new bids are theirs to keep.
          if (!(await this.auctions.isBarred(userId, manager))) return false;
          const [, rejected]: [unknown, number] = await manager.query(
            `UPDATE bids SET status = 'rejected', decided_at = $3, withdrawn_at = $3 WHERE listing_id = $1 AND bidder_id = $2 AND status = 'pending'`,
            [listing_id, userId, now],
          );
          if (rejected === 0) return false;
          await this.reprice(auction, 'bidder_removed', now, manager, userId);
          return true;
        });
        if (done) {
          changed.add(listing_id);
          swept += 1;
        }
      }
      if (swept === 0) break;
    }
    return [...changed];
  }

  /**
   * A deleted seller's sales end for good (D17, ADR 0038): like a deleted listing, each live or unsold one becomes a
   * tombstone that no listing event brings back and no close sells, its pending bids rejected; one transaction each.
   */
  async endSellerSales(sellerId: string, now: Date): Promise<string[]> {
    const rows: { listing_id: string }[] = await this.dataSource.query(
      `SELECT listing_id FROM auctions WHERE seller_id = $1 AND status NOT IN ('sold', 'deleted') AND winning_bid_id IS NULL ORDER BY listing_id`,
      [sellerId],
    );
    const ended: string[] = [];
    for (const { listing_id } of rows) {
      const done = await this.auctions.transaction(async (manager) => {
        const auction = await this.auctions.lock(listing_id, manager);
        if (!auction || FINAL.includes(auction.status) || auction.winning_bid_id !== null) return false;
        await manager.query(
          `UPDATE auctions SET status = 'deleted', source_updated_at = 'infinity', closed_at = COALESCE(closed_at, $2), updated_at = now() WHERE listing_id = $1`,
          [listing_id, now],
        );
        await manager.query(`UPDATE bids SET status = 'rejected', decided_at = $2 WHERE listing_id = $1 AND status = 'pending'`, [listing_id, now]);
        return true;
      });
      if (done) ended.push(listing_id);
    }
    return ended;
  }
}
