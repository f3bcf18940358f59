/**
 * What a listing's review vouched for (D16, ADR 0042): the fields buyers rely on. Changing one of them on an approved
 * listing sends it back to review; once it has bids they are locked, because bidders committed to them.
 */
export const REVIEWED_LISTING_FIELDS = [
  'title',
  'description',
  'website_url',
  'category',
  'monthly_revenue',
  'annual_revenue',
  'monthly_traffic',
  'monthly_expenses',
  'profit_margin',
  'business_age_months',
  'listing_type',
  'auction_type',
  'starting_price',
  'reserve_price',
  'buy_now_price',
  'duration_days',
] as const;
export type ReviewedListingField = (typeof REVIEWED_LISTING_FIELDS)[number];

/** The reviewed values of a listing; a price left empty is null. */
export type ReviewedListingValues = { [K in ReviewedListingField]?: string | number | null };

const LABELS: Record<ReviewedListingField, string> = {
  title: 'title',
  description: 'description',
  website_url: 'website address',
  category: 'category',
  monthly_revenue: 'monthly revenue',
  annual_revenue: 'annual revenue',
  monthly_traffic: 'monthly traffic',
  monthly_expenses: 'monthly expenses',
  profit_margin: 'profit margin',
  business_age_months: 'business age',
  listing_type: 'listing type',
  auction_type: 'auction type',
  starting_price: 'starting price',
  reserve_price: 'reserve price',
  buy_now_price: 'buy now price',
  duration_days: 'duration',
};

/** The label a person reads for a reviewed field. */
export function reviewedFieldLabel(field: ReviewedListingField): string {
  return LABELS[field];
}

function same(a: string | number | null | undefined, b: string | number | null | undefined): boolean {
  const left = a === undefined || a === '' ? null : a;
  const right = b === undefined || b === '' ? null : b;
  if (typeof left === 'string' && typeof right === 'string') return left.trim() === right.trim();
  return left === right;
}

/** The reviewed fields whose value differs between the approved listing and the edit (whitespace at the ends ignored). */
export function changedReviewedFields(approved: ReviewedListingValues, edited: ReviewedListingValues): ReviewedListingField[] {
  return REVIEWED_LISTING_FIELDS.filter((field) => !same(approved[field], edited[field]));
}

/** What an edit of reviewed fields does: nothing special, back to review, or refused because bids lock them. */
export type ReviewedEditOutcome = { kind: 'free' } | { kind: 'review'; fields: ReviewedListingField[] } | { kind: 'locked'; fields: ReviewedListingField[] };

/**
 * The rule for an edit (ADR 0042): a listing never approved, or an admin's own edit, is free; an approved listing whose
 * reviewed fields change goes back to review, unless it has bids, in which case the change is refused.
 */
export function reviewedEditOutcome(context: { approved: boolean; hasBids: boolean; byAdmin: boolean }, changed: readonly ReviewedListingField[]): ReviewedEditOutcome {
  if (changed.length === 0) return { kind: 'free' };
  if (context.hasBids) return { kind: 'locked', fields: [...changed] };
  if (!context.approved || context.byAdmin) return { kind: 'free' };
  return { kind: 'review', fields: [...changed] };
}

/** The sentence that refuses a locked edit, naming the fields. */
export function lockedFieldsMessage(fields: readonly ReviewedListingField[]): string {
  const names = fields.map(reviewedFieldLabel).join(', ');
  return `This listing has bids, so its ${names} can no longer change (bidders committed to them). Undo that change, or contact support if something is wrong.`;
}

/** The bounds of an admin's cancellation reason, which every bidder and the seller read (ADR 0042). */
export const CANCEL_REASON_MIN = 10;
export const CANCEL_REASON_MAX = 500;

/** Why a cancellation reason is refused, or null when it is fine. */
export function cancelReasonProblem(reason: string): string | null {
  const length = reason.trim().length;
  if (length < CANCEL_REASON_MIN) return `Give the reason the bidders and the seller will read (at least ${CANCEL_REASON_MIN} characters)`;
  if (length > CANCEL_REASON_MAX) return `Keep the reason under ${CANCEL_REASON_MAX} characters`;
  return null;
}
