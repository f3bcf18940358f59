import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { appendEvent } from '@market/server-kit';
import { buyNowPrice, buyNowRefusal, decideBidAction, decideClose, type BidActionDecision, type CloseOutcome } from '@market/domain';
import { AuctionsRepository } from '../auctions/auctions.repository';
import type { AuctionRecord, BidRecord } from '../auctions/auction.records';
import { buyerRefusal, saleDecisionRefusal, saleToRefusal } from '../auctions/bidding.policy';
import { StandingBids } from './standing-bids';
import { SalesRepository } from './sales.repository';
import { bidAcceptedPayload, bidRejectedPayload, expiredClosedPayload, soldClosedPayload, type SaleKind } from './sale.events';

export type CloseResult =
  | { closed: true; outcome: CloseOutcome }
  /** Not closed now: gone, already ended, or its end moved later (then `expires_at` says when). */
  | { closed: false; expires_at: Date | null };

export type ActionResult = { decision: BidActionDecision; bid: BidRecord } | null;

const isLive = (auction: Pick<AuctionRecord, 'status'>) => !['sold', 'expired', 'deleted'].includes(auction.status);

/**
 * Ending sales (D8, ADR 0070): at their end, when the seller accepts a bid, or by a buy-now purchase (D4). Every path
 * locks the auction row first and then its bids, so a close that runs twice, two replicas racing, or an accept at the
 * moment of expiry decide one after another. Each asks the policy first, decides by libs/domain, and writes through
 * SalesRepository with its events in the same transaction (outbox).
 */
@Injectable()
export class EndSales {
  constructor(
    private readonly auctions: AuctionsRepository,
    private readonly sales: SalesRepository,
    private readonly standing: StandingBids,
  ) {}

  /**
   * Buys a listing outright (D4) under the auction's lock: the purchase is recorded as the sale's winning bid at the
   * buy-now price, so it races bids, accepts and closes like any other way a sale ends. Null when the listing is unknown.
   */
  buyNow(listingId: string, buyerId: string, now: Date): Promise<{ refusal: string | null; bid: BidRecord | null } | null> {
    return this.auctions.transaction(async (manager) => {
      const auction = await this.auctions.lock(listingId, manager);
      if (!auction) return null;
      const refusal = buyerRefusal({ barred: await this.auctions.isBarred(buyerId, manager) }) ?? buyNowRefusal(auction, buyerId, now);
      if (refusal) return { refusal, bid: null };
      const bid = await this.auctions.insertBid(auction.listing_id, buyerId, 'buy_now', buyNowPrice(auction) as number, manager);
      await this.sell(auction, bid, 'buy_now', now, manager);
      return { refusal: null, bid: { ...bid, status: 'accepted' } };
    });
  }

  /** Closes one sale if it is live and its end has passed: sold to the highest pending bid, or expired. */
  closeDue(listingId: string, now: Date): Promise<CloseResult> {
    return this.auctions.transaction(async (manager) => {
      const auction = await this.auctions.lock(listingId, manager);
      if (!auction || !isLive(auction)) return { closed: false, expires_at: null };
      if (!auction.expires_at || auction.expires_at.getTime() > now.getTime()) return { closed: false, expires_at: auction.expires_at };
      return { closed: true, outcome: await this.closeLocked(auction, now, manager) };
    });
  }

  /** The seller accepts or rejects one pending bid or offer; accepting sells the listing and rejects the rest. */
  decide(bidId: string, actorId: string, action: 'accept' | 'reject', now: Date): Promise<ActionResult> {
    return this.auctions.transaction(async (manager) => {
      const listingId = await this.sales.listingOfBid(bidId, manager);
      if (!listingId) return null;
      // Auction row first, then the bid: the same order as every other path.
      const locked = await this.auctions.lock(listingId, manager);
      if (!locked) return null;
      const refused = saleDecisionRefusal(actorId, locked);
      if (refused) return { decision: refused, bid: (await this.sales.lockBid(bidId, manager)) as BidRecord };
      // A sale whose end has passed ends first, as its close job would have (D8): an auto auction's highest bid wins
      // even if the seller acts in the moment before the job runs.
      const overdue = isLive(locked) && locked.expires_at !== null && locked.expires_at.getTime() <= now.getTime();
      if (overdue) await this.closeLocked(locked, now, manager);
      const auction = overdue ? await this.auctions.lock(listingId, manager) : locked;
      const bid = await this.sales.lockBid(bidId, manager);
      if (!auction || !bid) return null;
      const decision = decideBidAction(auction, bid, action, now);
      if (!decision.allowed) return { decision, bid };
      if (decision.sale === null) {
        await this.sales.rejectBid(bidId, now, manager);
        await appendEvent(manager, 'bid.rejected', bidRejectedPayload(auction, bid));
        // The public price, count and reserve state follow at once, in this transaction (ADR 0038).
        if (bid.kind === 'bid') await this.standing.reprice(auction, 'bid_rejected', now, manager, bid.bidder_id);
        return { decision, bid: { ...bid, status: 'rejected' } };
      }
      const notToThem = saleToRefusal(await this.auctions.isBarred(bid.bidder_id, manager));
      if (notToThem) return { decision: notToThem, bid };
      await this.sell(auction, bid, decision.sale, now, manager);
      return { decision, bid: { ...bid, status: 'accepted' } };
    });
  }

  /** Ends a locked sale whose end has passed (D8). */
  private async closeLocked(auction: AuctionRecord, now: Date, manager: EntityManager): Promise<CloseOutcome> {
    const highest = await this.sales.highestEligibleBid(auction.listing_id, manager);
    // A removed seller's sale does not sell at its end: it expires with its bids open for the seller's 7 days (D8, ADR 0038).
    const sellerBarred = await this.auctions.isBarred(auction.seller_id, manager);
    const outcome = sellerBarred ? ({ outcome: 'expired', reason: 'manual' } as const) : decideClose(auction, highest);
    if (outcome.outcome === 'sold') {
      await this.sell(auction, highest as BidRecord, 'auction_win', now, manager);
      return outcome;
    }
    const pending = await this.sales.markExpired(auction.listing_id, now, manager);
    await appendEvent(manager, 'auction.closed', expiredClosedPayload(auction, outcome.reason, pending, now));
    return outcome;
  }

  /** Sells to `winner`: the sale's rows, bid.accepted, and auction.closed unless its unsold end was announced already. */
  private async sell(auction: AuctionRecord, winner: BidRecord, sale: SaleKind, now: Date, manager: EntityManager): Promise<void> {
    await this.sales.markSold(auction.listing_id, winner.id, now, manager);
    await appendEvent(manager, 'bid.accepted', bidAcceptedPayload(auction, winner, sale, now));
    // An unsold end was announced when it happened; a sale after it is told by bid.accepted alone.
    if (auction.closed_at === null) await appendEvent(manager, 'auction.closed', soldClosedPayload(auction, winner, sale, now));
  }
}
