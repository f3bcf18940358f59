import type { EventPayloads } from '@market/contracts';
import type { AuctionRecord, BidRecord } from '../auctions/auction.records';

/** How a sale was made (D4, D8). */
export type SaleKind = 'auction_win' | 'bid_accepted' | 'accepted_after_close' | 'buy_now';

/** The bid.accepted payload of a sale to `winner` (the one place this event is built). */
export function bidAcceptedPayload(auction: AuctionRecord, winner: BidRecord, sale: SaleKind, now: Date): EventPayloads['bid.accepted'] {
  return {
    listing_id: auction.listing_id,
    listing_title: auction.title,
    seller_id: auction.seller_id,
    amount: winner.amount,
    website_url: auction.website_url,
    bid_id: winner.id,
    buyer_id: winner.bidder_id,
    kind: winner.kind,
    sale,
    accepted_at: now.toISOString(),
  };
}

/** The auction.closed payload of a sale that sold to `winner`. */
export function soldClosedPayload(auction: AuctionRecord, winner: BidRecord, sale: SaleKind, now: Date): EventPayloads['auction.closed'] {
  return {
    listing_id: auction.listing_id,
    listing_title: auction.title,
    seller_id: auction.seller_id,
    amount: winner.amount,
    outcome: 'sold',
    reason: sale === 'auction_win' ? 'won' : sale === 'buy_now' ? 'bought' : 'accepted',
    winning_bid_id: winner.id,
    buyer_id: winner.bidder_id,
    closed_at: now.toISOString(),
    pending_bids: 0,
  };
}

/** The auction.closed payload of a sale that ended unsold, with the bids still waiting for the seller (D8). */
export function expiredClosedPayload(
  auction: AuctionRecord,
  reason: EventPayloads['auction.closed']['reason'],
  pendingBids: number,
  now: Date,
): EventPayloads['auction.closed'] {
  return {
    listing_id: auction.listing_id,
    listing_title: auction.title,
    seller_id: auction.seller_id,
    outcome: 'expired',
    reason,
    winning_bid_id: null,
    buyer_id: null,
    amount: null,
    closed_at: now.toISOString(),
    pending_bids: pendingBids,
  };
}

/** The bid.rejected payload of a seller's rejection. */
export function bidRejectedPayload(auction: AuctionRecord, bid: BidRecord): EventPayloads['bid.rejected'] {
  return { bid_id: bid.id, listing_id: bid.listing_id, bidder_id: bid.bidder_id, amount: bid.amount, listing_title: auction.title, kind: bid.kind };
}
