import { CreateReviewSchema, type CreateReview, type SaleReviewStateDto } from '@market/contracts';
import { REVIEW_TEXT_MAX, reviewTextLength } from '@market/domain';
import { displayName, reviewDay } from '../../components/reviews/review-format';

/** What the review dialog holds while it is filled in: no stars chosen is 0. */
export interface ReviewDraft {
  stars: number;
  text: string;
}

export type ReviewErrors = Partial<Record<'stars' | 'text' | 'form', string>>;

/**
 * The request for a draft, or what is wrong with it, by the contracts' own schema (D23: 1 to 5 stars, 10 to 1000
 * characters once trimmed), so the dialog and the API never disagree on a rule.
 */
export function validateReview(invoiceId: string, draft: ReviewDraft): { request: CreateReview } | { errors: ReviewErrors } {
  const parsed = CreateReviewSchema.safeParse({ invoice_id: invoiceId, stars: draft.stars > 0 ? draft.stars : undefined, text: draft.text });
  if (parsed.success) return { request: parsed.data };
  const errors: ReviewErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] === 'stars' || issue.path[0] === 'text' ? issue.path[0] : 'form';
    errors[field] ??= field === 'stars' ? 'Give 1 to 5 stars' : field === 'form' ? 'This sale cannot be reviewed from here.' : issue.message;
  }
  return { errors };
}

/** The text's counter under the field: characters as the rule counts them (code points, trimmed). */
export function reviewCount(text: string): string {
  return `${reviewTextLength(text)} / ${REVIEW_TEXT_MAX}`;
}

/**
 * What the dialog says once the review is in: it stays private until the other party has written theirs or the 60 days
 * end (D23), so neither answers the other.
 */
export function reviewThanks(sale: Pick<SaleReviewStateDto, 'other_party' | 'closes_at'>): string {
  return `Thanks — your review will appear when ${displayName(sale.other_party)} has written theirs, or on ${reviewDay(sale.closes_at)} at the latest.`;
}

/** The row's line about a sale's reviews, or null when there is nothing to say (not paid out, or never reviewed). */
export function reviewStatusLine(sale: SaleReviewStateDto, now: Date = new Date()): string | null {
  if (sale.can_review) return `You can review ${displayName(sale.other_party)} until ${reviewDay(sale.closes_at)}.`;
  if (sale.mine && !sale.theirs && now < new Date(sale.closes_at)) return `Your review shows once ${displayName(sale.other_party)} has written theirs, or on ${reviewDay(sale.closes_at)}.`;
  return null;
}
