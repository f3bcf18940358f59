import { allowsDirectPurchase, DIRECT_PURCHASE_LIMIT, formatDollars } from '../money/money.rules';
import { acceptsBids, type ListingStatus } from '../listings/listing-status.rules';
import { invalidAmount, PENDING_BID_DAYS_AFTER_CLOSE, type AuctionState } from './bid.rules';

const DAY_MS = 24 * 3600_000;

/** What an offer is judged against: the fixed-price listing and its asking price. */
export interface OfferTerms extends Pick<AuctionState, 'seller_id' | 'listing_type' | 'status' | 'expires_at' | 'starting_price'> {
  buy_now_price: number | null;
}

/** The price a fixed-price listing asks: its buy-now price, else its starting price. */
export function askingPrice(terms: Pick<OfferTerms, 'buy_now_price' | 'starting_price'>): number {
  return terms.buy_now_price ?? terms.starting_price;
}

/**
 * Decides an offer on a fixed-price listing (D5): whole dollars, never the seller's own, only while the listing is
 * live, and never above the asking price (at that price the buyer buys instead). Null means the offer stands.
 */
export function offerRefusal(terms: OfferTerms, offer: { bidder_id: string; amount: number }, now: Date): string | null {
  const badAmount = invalidAmount(offer.amount);
  if (badAmount) return badAmount.replace('Bid', 'Offer');
  if (offer.bidder_id === terms.seller_id) return 'You cannot make an offer on your own listing';
  if (terms.listing_type !== 'fixed') return 'This listing is an auction: place a bid instead';
  if (!acceptsBids(terms.status, terms.expires_at, now)) return 'This listing is not accepting offers';
  const asking = askingPrice(terms);
  if (offer.amount > asking) return `Offer cannot be above the asking price of ${formatDollars(asking)}`;
  return null;
}

/** The sale state a seller's decision is judged against. */
export interface SaleState {
  seller_id: string;
  /** A listing status, or 'deleted' once the listing is gone. */
  status: ListingStatus | 'deleted';
  closed_at: Date | null;
  winning_bid_id: string | null;
}

export type BidActionDecision =
  | { allowed: true; sale: 'bid_accepted' | 'accepted_after_close' | null }
  | { allowed: false; status: 403 | 400; reason: string };

/**
 * Decides a seller's accept or reject of one bid or offer (D5, D8); who may act (the listing's seller) is the bidding
 * service's policy, asked first. Only a pending bid is decided. A seller may always reject. Accepting sells the listing: while its sale has not ended (live, paused, draft or
 * in review), or within
 * PENDING_BID_DAYS_AFTER_CLOSE days after it ended unsold; never once a bid has won.
 */
export function decideBidAction(
  sale: SaleState,
  bid: { status: 'pending' | 'accepted' | 'rejected' },
  action: 'accept' | 'reject',
  now: Date,
): BidActionDecision {
  if (bid.status !== 'pending') return { allowed: false, status: 400, reason: `This bid has already been ${bid.status}` };
  if (action === 'reject') return { allowed: true, sale: null };
  if (sale.winning_bid_id !== null || sale.status === 'sold') return { allowed: false, status: 400, reason: 'This listing has already been sold' };
  if (sale.status === 'deleted') return { allowed: false, status: 400, reason: 'This listing no longer exists' };
  // Not ended: live, paused, or back in draft or review with its bids still standing.
  if (sale.status !== 'expired') return { allowed: true, sale: 'bid_accepted' };
  const withinWindow = sale.closed_at !== null && !pendingBidLapsed(sale.closed_at, now);
  if (withinWindow) return { allowed: true, sale: 'accepted_after_close' };
  return { allowed: false, status: 400, reason: 'This bid can no longer be accepted' };
}

/** Whether a pending bid on a sale that ended at closedAt has outlived the seller's window (then it is rejected). */
export function pendingBidLapsed(closedAt: Date, now: Date): boolean {
  return now.getTime() - closedAt.getTime() >= PENDING_BID_DAYS_AFTER_CLOSE * DAY_MS;
}

/** The price a buy-now purchase pays (D4): a fixed listing's price, an auction's buy-now price; null when there is none. */
export function buyNowPrice(terms: Pick<AuctionState, 'listing_type' | 'starting_price'> & { buy_now_price: number | null }): number | null {
  return terms.listing_type === 'fixed' ? terms.starting_price : terms.buy_now_price;
}

/**
 * Decides a buy-now purchase (D4): never the seller's own, only while the listing is live, only below the direct
 * purchase limit, and not once an auction's bidding has reached the buy-now price. Null means the purchase stands.
 */
export function buyNowRefusal(
  terms: Pick<AuctionState, 'seller_id' | 'listing_type' | 'status' | 'expires_at' | 'starting_price' | 'current_bid'> & { buy_now_price: number | null },
  buyerId: string,
  now: Date,
): string | null {
  if (buyerId === terms.seller_id) return 'You cannot buy your own listing';
  if (!acceptsBids(terms.status, terms.expires_at, now)) return 'This listing is no longer available';
  const price = buyNowPrice(terms);
  if (price === null) return 'This listing has no buy now price';
  if (!allowsDirectPurchase(price)) return `Purchases from ${formatDollars(DIRECT_PURCHASE_LIMIT)} are completed through escrow: contact the seller`;
  if (terms.listing_type === 'auction' && terms.current_bid !== null && terms.current_bid >= price) return 'Bidding has passed the buy now price';
  return null;
}
