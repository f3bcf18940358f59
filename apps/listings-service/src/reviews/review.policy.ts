import type { Actor } from '@market/contracts';
import { isReviewVisible, saleRoleOf, type SaleRole } from '@market/domain';
import { forbidden, notFound } from '@market/server-kit';
import type { CompletedSaleRow, ReviewRow } from './review.repository';

const SALE_NOT_FOUND = 'Sale not found';
/** What a review that does not exist for the caller is: one answer for unknown, hidden and not yet visible. */
export const REVIEW_NOT_FOUND = 'Review not found';

/**
 * Who may review a sale (D23, ADR 0083): its buyer or its seller, as themselves. A sale the actor was not part of, or
 * one not paid out (unknown here), is the same 404, never a 403 that would confirm it exists; an admin acting as the
 * member may not speak for them (403, D14).
 */
export function authorizeReview(actor: Actor, sale: CompletedSaleRow | null): { sale: CompletedSaleRow; role: SaleRole } {
  const role = sale ? saleRoleOf(sale, actor.user_id) : null;
  if (!sale || !role) throw notFound(SALE_NOT_FOUND);
  if (actor.impersonator_id) throw forbidden('An admin acting as a member cannot write reviews for them');
  return { sale, role };
}

/** Only the seller a buyer's review is about replies to it, and only once it is visible (before that it does not exist for them). */
export function authorizeReply(actor: Actor, review: ReviewRow | null, now: Date): ReviewRow {
  const mine = review !== null && review.author_role === 'buyer' && review.subject_id === actor.user_id;
  if (!review || !mine || !isReviewVisible(visibilityOf(review), now)) throw notFound(REVIEW_NOT_FOUND);
  if (actor.impersonator_id) throw forbidden('An admin acting as a member cannot reply for them');
  return review;
}

/** What the domain's visibility rule needs of a stored review. */
export function visibilityOf(review: ReviewRow): { hidden: boolean; bothWritten: boolean; closesAt: Date } {
  return { hidden: review.hidden_at !== null, bothWritten: review.both_written, closesAt: review.reviews_close_at };
}

