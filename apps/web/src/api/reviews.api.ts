import type { CreateReview, MySaleReviews, ReviewDto, SellerPageDto } from '@market/contracts';
import { api } from '../lib/api';
import { retryableKeyHeaders } from '../lib/idempotency-key';

/** The caller's sales paid out with their reviews (the Invoices row action), read again after any review write. */
const SALE_REVIEWS = 'SaleReviews';
/** A seller's public page, by username: its rating, reviews and replies change with every write below. */
const SELLER_PAGE = 'SellerPage';

/** Which page of a seller's reviews to read (D23: 10 a page, newest first). */
export interface SellerPageArgs {
  username: string;
  page: number;
}

// A write changes the seller's rating, which the listing's seller card shows too: every kept listing is read again.
const AFTER_WRITE = [SALE_REVIEWS, SELLER_PAGE, 'Listing'] as const;

/** Reviews of completed sales and sellers' public pages (D23, ADR 0083): /api/reviews, /api/user/reviews, /api/sellers. */
export const reviewsApi = api.enhanceEndpoints({ addTagTypes: [SALE_REVIEWS, SELLER_PAGE] }).injectEndpoints({
  endpoints: (build) => ({
    mySaleReviews: build.query<MySaleReviews, void>({ query: () => '/user/reviews', providesTags: [SALE_REVIEWS] }),
    sellerPage: build.query<SellerPageDto, SellerPageArgs>({
      query: ({ username, page }) => `/sellers/${encodeURIComponent(username)}${page > 1 ? `?page=${page}` : ''}`,
      providesTags: [SELLER_PAGE],
    }),
    createReview: build.mutation<ReviewDto, CreateReview>({
      query: (body) => ({ url: '/reviews', method: 'POST', body, headers: retryableKeyHeaders('/reviews', body) }),
      // Also on failure: a 409 (reviewed already, window closed) means the row that offered the review is stale.
      invalidatesTags: [...AFTER_WRITE],
    }),
    replyToReview: build.mutation<ReviewDto, { id: string; text: string }>({
      query: ({ id, text }) => ({ url: `/reviews/${encodeURIComponent(id)}/reply`, method: 'POST', body: { text } }),
      invalidatesTags: [SELLER_PAGE, SALE_REVIEWS],
    }),
    hideReview: build.mutation<ReviewDto, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `/admin/reviews/${encodeURIComponent(id)}/hide`, method: 'POST', body: { reason } }),
      invalidatesTags: [...AFTER_WRITE],
    }),
  }),
});

export const { useMySaleReviewsQuery, useSellerPageQuery, useCreateReviewMutation, useReplyToReviewMutation, useHideReviewMutation } = reviewsApi;
