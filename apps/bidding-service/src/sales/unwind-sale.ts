import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventPayloads } from '@market/contracts';
import { appendEvent } from '@market/server-kit';
import { AuctionsRepository } from '../auctions/auctions.repository';
import type { AuctionRecord } from '../auctions/auction.records';
import { BuyerStrikesRepository } from '../holds/buyer-strikes.repository';
import { SalesRepository } from './sales.repository';
import { StandingBids } from './standing-bids';

export type UnwindResult = { unwound: true; status: 'active' | 'expired'; expires_at: Date | null } | { unwound: false };

/**
 * Unwinds a sale whose invoice lapsed unpaid or was cancelled (ADR 0043, 0070), in the sale.lapsed consumer's
 * transaction: the only path that takes a sale back. Under the auction's lock (the order every sale path uses) the
 * winning bid is rejected with its reason, the bids the sale turned down come back, and the sale is live again until its
 * end, or ended with those bids open for the seller's second chance (accept after close, D8). sale.unwound tells listings.
 */
@Injectable()
export class UnwindSale {
  constructor(
    private readonly auctions: AuctionsRepository,
    private readonly sales: SalesRepository,
    private readonly strikes: BuyerStrikesRepository,
    private readonly standing: StandingBids,
  ) {}

  /** Records the buyer's strike (once per invoice) and unwinds the sale if `bid_id` is still its winner. */
  async unwind(event: EventPayloads['sale.lapsed'], manager: EntityManager, now = new Date()): Promise<UnwindResult> {
    if (event.strike) await this.strikes.recordStrike({ ...event, struck_at: event.lapsed_at }, manager);
    const auction = await this.auctions.lock(event.listing_id, manager);
    const winner = await this.sales.lockWinner(event.bid_id, manager);
    // Already unwound (a redelivery), or a sale this service does not know as won by that bid: nothing to take back.
    if (!auction || !winner || winner.status !== 'accepted' || auction.winning_bid_id !== event.bid_id) return { unwound: false };
    await this.sales.rejectWinner(event.bid_id, event.reason === 'unpaid' ? 'lapsed' : 'sale_cancelled', now, manager);
    await this.sales.restoreTurnedDown(event.listing_id, winner.decided_at, event.bid_id, event.buyer_id, manager);
    const live = auction.expires_at !== null && auction.expires_at.getTime() > now.getTime();
    const status = live ? 'active' : 'expired';
    await this.sales.reopen(event.listing_id, status, live ? null : now, now, manager);
    const reopened: AuctionRecord = { ...auction, status, winning_bid_id: null, closed_at: live ? null : now };
    await this.standing.reprice(reopened, 'bid_rejected', now, manager, event.buyer_id);
    const after = await this.sales.standingOf(event.listing_id, manager);
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
