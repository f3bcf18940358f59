import type { ListingDto } from '@market/contracts';
import { acceptsBids, allowsDirectPurchase } from '@market/domain';

/** The buttons of the action panel besides Contact Seller and Add to Watchlist. */
export type PanelAction = 'place_bid' | 'buy_now' | 'make_offer' | 'escrow';

export interface PanelPlan {
  /** The label and amount of the headline price. */
  priceLabel: string;
  price: number;
  /** The buy-now price of an auction, or the fixed price; null when the listing has none. */
  purchasePrice: number | null;
  /** The seller (or an admin) gets an edit link; the seller gets no buy/bid buttons. */
  canEdit: boolean;
  showBuyerActions: boolean;
  actions: PanelAction[];
}

type PlanListing = Pick<ListingDto, 'seller_id' | 'listing_type' | 'status' | 'expires_at' | 'current_bid' | 'starting_price' | 'buy_now_price'>;

/** What the action panel offers this viewer (D4: buying directly only below 5000, escrow by contact from 5000 up). */
export function planActions(
  listing: PlanListing,
  viewer: { id: string; role: string } | null,
  now: Date = new Date(),
): PanelPlan {
  const isOwner = viewer?.id === listing.seller_id;
  const auction = listing.listing_type === 'auction';
  const purchasePrice = auction ? listing.buy_now_price : listing.starting_price;
  const open = acceptsBids(listing.status, listing.expires_at ? new Date(listing.expires_at) : null, now);
  const actions: PanelAction[] = [];
  if (open && !isOwner) {
    if (auction) actions.push('place_bid');
    if (purchasePrice !== null && allowsDirectPurchase(purchasePrice)) actions.push('buy_now');
    else if (purchasePrice !== null) actions.push(...(auction ? [] : (['make_offer'] as const)), 'escrow');
  }
  return {
    priceLabel: !auction ? 'Asking price' : listing.current_bid === null ? 'Starting bid' : listing.status === 'sold' ? 'Final bid' : 'Current bid',
    price: auction ? (listing.current_bid ?? listing.starting_price) : listing.starting_price,
    purchasePrice,
    canEdit: isOwner || viewer?.role === 'admin',
    showBuyerActions: !isOwner,
    actions,
  };
}

/** Button labels of the panel actions (SPEC §2, D4). */
export const ACTION_LABELS: Record<PanelAction, string> = {
  place_bid: 'Place Bid',
  buy_now: 'Buy Now',
  make_offer: 'Make an offer',
  escrow: 'Contact seller about escrow',
};

/** The watchlist outcome texts of SPEC §8. */
export function watchlistMessage(result: { ok: true } | { ok: false; status: unknown }): { text: string; success: boolean } {
  if (result.ok) return { text: 'Added to watchlist successfully!', success: true };
  if (result.status === 400) return { text: 'This listing is already in your watchlist.', success: false };
  return { text: 'Error adding to watchlist. Please try again.', success: false };
}
