import { listingPricingIssues, type Actor, type CreateListing, type UpdateListing, type ValidationIssue } from '@market/contracts';
import { changedReviewedFields, reviewedEditOutcome, type ReviewedEditOutcome } from '@market/domain';
import { AppError } from '@market/server-kit';
import type { ListingRecord } from './listings.repository';
import { listingAbilities } from './listing.policy';

/** A value the edit left out (undefined) keeps the stored one; null (sent empty) clears it to none. */
function edited<T>(sent: T | null | undefined, stored: T | null): T | undefined {
  if (sent === undefined) return stored ?? undefined;
  return sent ?? undefined;
}

/**
 * The listing an edit makes (ADR 0036): the edit form's required fields as sent, every optional field as sent or, when
 * left out, as stored. A monthly_expenses left out therefore keeps the stored expenses (SPEC §5's form has no such
 * field), and a reserve left out keeps the reserve.
 */
export function applyEdit(current: ListingRecord, input: UpdateListing): CreateListing {
  return {
    title: input.title,
    description: input.description,
    category: input.category,
    website_url: input.website_url,
    monthly_revenue: input.monthly_revenue,
    annual_revenue: input.annual_revenue,
    monthly_traffic: input.monthly_traffic,
    monthly_expenses: input.monthly_expenses ?? current.monthly_expenses,
    profit_margin: input.profit_margin,
    business_age_months: input.business_age_months,
    monetization_methods: input.monetization_methods ?? (current.monetization_methods as CreateListing['monetization_methods']),
    listing_type: input.listing_type ?? current.listing_type,
    auction_type: input.auction_type ?? current.auction_type,
    starting_price: input.starting_price,
    reserve_price: edited(input.reserve_price, current.reserve_price),
    buy_now_price: edited(input.buy_now_price, current.buy_now_price),
    duration_days: input.duration_days ?? current.duration_days,
    key_metrics: edited(input.key_metrics, current.key_metrics),
    growth_opportunities: edited(input.growth_opportunities, current.growth_opportunities),
    included_assets: edited(input.included_assets, current.included_assets),
    reason_for_selling: edited(input.reason_for_selling, current.reason_for_selling),
  };
}

/** The pricing rules broken by an edited listing, as a 422's detail list (empty when they all hold). */
export function editPricingIssues(listing: CreateListing): ValidationIssue[] {
  return listingPricingIssues(listing).map((issue) => ({ loc: ['body', issue.path], msg: issue.message, type: 'custom' }));
}

/**
 * What an edit of the reviewed fields does (ADR 0042): free, back to review, or locked by bids. With auto_approve on
 * nothing is reviewed, so an edit without bids stays live.
 */
export function reviewedEdit(current: ListingRecord, listing: CreateListing, editor: Actor, autoApprove: boolean): ReviewedEditOutcome {
  // profit_margin is stored to one decimal (numeric(4, 1)): compare what would be stored.
  const changed = changedReviewedFields(current, { ...listing, profit_margin: Number(listing.profit_margin.toFixed(1)) });
  const approved = current.approved_at !== null && !autoApprove;
  return reviewedEditOutcome({ approved, hasBids: current.bid_count > 0, byAdmin: listingAbilities(editor, current).moderate }, changed);
}

/** A 422 naming one field of the edit form. */
export function invalid(path: string[], msg: string): AppError {
  return new AppError('validation_failed', [{ loc: ['body', ...path], msg, type: 'custom' }]);
}
