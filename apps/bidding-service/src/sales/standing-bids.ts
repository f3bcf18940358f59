import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { repriceAuction, repriceWithMaximums, type ProxyRepricedState, type ProxyStandingBid, type RepricedState } from '@market/domain';
import { appendEvent } from '@market/server-kit';
import { AuctionsRepository } from '../auctions/auctions.repository';
import type { AuctionRecord } from '../auctions/auction.records';
import { maximumsOf, resetMaximum } from '../auctions/auction-maximums.repository';
import { StandingBidsRepository, type MemberStatus } from './standing-bids.repository';

// Sales whose price no longer moves: a sold one keeps the price it sold at, a deleted one is gone.
const FINAL = ['sold', 'deleted'];
// Sales that have ended: maximums no longer bid there, the seller picks among the bids standing (D8).
const ENDED = ['sold', 'expired', 'deleted'];
// How many times a member's sweep looks again for bids that slipped past the previous look.
const MAX_SWEEP_PASSES = 5;

/**
 * Bids leaving auctions without a sale (ADR 0038, 0070): the auction is repriced by libs/domain from the bids still
 * standing, in the transaction that rejected them, with its auction.repriced event; a removed member's bids leave and a
 * deleted seller's sales end. Every path locks the auction row first, as bids and closes do.
 */
@Injectable()
export class StandingBids {
  constructor(
    private readonly auctions: AuctionsRepository,
    private readonly rows: StandingBidsRepository,
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
    const standing = await this.rows.pendingBids(auction.listing_id, manager);
    const proxy = auction.auction_type === 'auto' && auction.closed_at === null && !ENDED.includes(auction.status);
    const state = proxy ? await this.repriceProxy(auction, standing, now, manager) : repriceAuction(auction, standing);
    const priceVersion = await this.rows.writePrice(auction.listing_id, state.current_bid, state.bid_count, manager);
    await appendEvent(manager, 'auction.repriced', {
      listing_id: auction.listing_id,
      current_bid: state.current_bid,
      bid_count: state.bid_count,
      reserve_met: state.reserve_met,
      price_version: priceVersion,
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
    if (state.withdraw.length > 0) await this.rows.withdraw(state.withdraw, now, manager);
    if (state.add) await this.rows.addAutomatic(auction.listing_id, state.add.bidder_id, state.add.amount, manager);
    return state;
  }

  /** Records a member's moderation state (StandingBidsRepository.recordMember); returns it as it now stands. */
  recordMember(userId: string, status: MemberStatus, at: Date): Promise<MemberStatus> {
    return this.rows.recordMember(userId, status, at);
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
      let swept = 0;
      for (const listingId of await this.rows.listingsWithPending(userId)) {
        const done = await this.auctions.transaction(async (manager) => {
          const auction = await this.auctions.lock(listingId, manager);
          if (!auction) return false;
          // A reactivation that came in meanwhile stops the sweep: the member's new bids are theirs to keep.
          if (!(await this.auctions.isBarred(userId, manager))) return false;
          if ((await this.rows.rejectMemberBids(listingId, userId, now, manager)) === 0) return false;
          await this.reprice(auction, 'bidder_removed', now, manager, userId);
          return true;
        });
        if (done) {
          changed.add(listingId);
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
    const ended: string[] = [];
    for (const listingId of await this.rows.unsoldSalesOf(sellerId)) {
      const done = await this.auctions.transaction(async (manager) => {
        const auction = await this.auctions.lock(listingId, manager);
        if (!auction || FINAL.includes(auction.status) || auction.winning_bid_id !== null) return false;
        await this.rows.endForGood(listingId, now, manager);
        return true;
      });
      if (done) ended.push(listingId);
    }
    return ended;
  }
}
