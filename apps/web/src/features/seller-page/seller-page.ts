import type { SellerPageDto } from '@market/contracts';
import { SITE_NAME, type PageMeta } from '../../lib/page-meta';
import { displayName, memberSince, reviewCountText, sellerPagePath } from '../../components/reviews/review-format';
import { starsLabel } from '../../components/reviews/Stars';

/** The API's words for an unknown, suspended or deleted account: a seller page never tells them apart (ADR 0083). */
export const NOT_ACTIVE_TEXT = 'This account is not active.';
export const NO_REVIEWS_TEXT = 'No reviews yet';
export const NO_LISTINGS_TEXT = 'No live listings';

/** Statuses that mean "no such seller page": not active (404), or a username the API cannot read. */
const NOT_ACTIVE_STATUSES: unknown[] = [400, 404, 422];

/** The page of reviews ?page= asks for: a whole number from 1, else the first page. */
export function reviewsPageOf(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= 1000 ? page : 1;
}

/** True when a failed read of the page means the account is not active (as opposed to the API being unreachable). */
export function isNotActive(error: unknown): boolean {
  return NOT_ACTIVE_STATUSES.includes((error as { status?: unknown } | undefined)?.status);
}

/** "Rated 4.5 out of 5 from 12 reviews", or "No ratings yet" before the first visible review (D23). */
export function ratingText(seller: SellerPageDto['seller']): string {
  return seller.rating === null ? 'No ratings yet' : `Rated ${starsLabel(seller.rating)} from ${reviewCountText(seller.review_count)}`;
}

/** "1 sale completed", "8 sales completed": sales paid out (D23). */
export function salesText(count: number): string {
  return `${count} ${count === 1 ? 'sale' : 'sales'} completed`;
}

/**
 * What the page tells the tab, search engines and link previews (ADR 0072): the seller's name and figures, its
 * canonical address with the reviews page, and for an account that is not active a 404 kept out of search results.
 */
export function sellerPageMeta(username: string, page: number, data: SellerPageDto | undefined, notActive: boolean): PageMeta {
  if (notActive) return { title: 'Account not active', url: sellerPagePath(username, page), status: 404, noindex: true };
  if (!data) return { title: `@${username}`, url: sellerPagePath(username, page) };
  const { seller } = data;
  const name = displayName(seller);
  return {
    title: page > 1 ? `${name} (@${seller.username}): reviews, page ${page}` : `${name} (@${seller.username})`,
    description: `${name} sells websites on ${SITE_NAME}. ${ratingText(seller)}, ${salesText(seller.total_transactions)}, member since ${memberSince(seller.member_since)}.`,
    url: sellerPagePath(seller.username, page),
    type: 'profile',
    // A page past the last has nothing of its own to index.
    ...(page > Math.max(1, data.pages) ? { noindex: true } : {}),
  };
}
