import type { ListingVerificationDto } from '@market/contracts';

// ADR 0084: the listing's `revenue_verified`/`traffic_verified` (the card badges and the browse filters) mean the claim
// is verified: the figure is current AND the seller's claim is at most 15% above it. The texts say so.

/** The card badges' tooltips: the claim is backed by the verified figure, not merely connected. */
export const CLAIM_BACKED_TITLE = {
  revenue: 'The seller’s revenue claim is backed by current Stripe figures: at most 15% above the verified monthly revenue',
  traffic: 'The seller’s traffic claim is backed by current Google Analytics figures: at most 15% above the verified monthly sessions',
} as const;

/** The browse filters' tooltips: which listings each box keeps. */
export const CLAIM_FILTER_TITLE = {
  revenue: 'Only listings whose revenue claim is backed by current Stripe figures (at most 15% above them)',
  traffic: 'Only listings whose traffic claim is backed by current Google Analytics figures (at most 15% above them)',
} as const;

/** A listing's claim badges as its flags say, with a flag dropped wherever the shown figures flag that claim as inflated. */
export function backedClaims(listing: {
  revenue_verified: boolean;
  traffic_verified: boolean;
  verification?: ListingVerificationDto;
}): { revenue: boolean; traffic: boolean } {
  // The flag is written by the refresh and the figures read now: an edited claim can disagree for a moment.
  return {
    revenue: listing.revenue_verified && !listing.verification?.revenue?.inflated,
    traffic: listing.traffic_verified && !listing.verification?.traffic?.inflated,
  };
}

/**
 * How the listing page and the admin review name the Stripe source: by `account_label`, the statement descriptor of the newest charge, which the
 * seller may set per charge, so never as the account's name (ADR 0084).
 */
export function chargesDescribedAs(descriptor: string): string {
  return `Charges described as “${descriptor}”`;
}
