import { z } from 'zod';
import { defineRoute } from '../http/define-route';
import { UuidSchema } from '../common.schemas';
import {
  CreateReviewSchema,
  HideReviewSchema,
  MySaleReviewsSchema,
  ReviewReplySchema,
  ReviewSchema,
  SellerPageQuerySchema,
  SellerPageSchema,
} from './review.schemas';

const ReviewPath = z.object({ id: UuidSchema });

/** Reviews of completed sales and sellers' public pages (D23, ADR 0083). */
export const REVIEW_ROUTES = {
  create: defineRoute({
    method: 'post',
    path: '/reviews',
    tag: 'reviews',
    summary: "Review the other party of a sale paid out: 1 to 5 stars and 10 to 1000 characters",
    description:
      "Only the sale's buyer or seller, once, within 60 days of the payout. A sale the caller was not part of, one not paid out, or an " +
      'unknown invoice is a 404; a second review, or one after the window closed, a 409. The review stays private until both parties ' +
      'have written or the window closes. An admin acting as the user may not write it (403). With an Idempotency-Key a retry ' +
      'answers the first result (ADR 0047).',
    auth: 'user',
    body: CreateReviewSchema,
    idempotent: true,
    status: 201,
    reply: ReviewSchema,
    errors: [403, 404, 409],
  }),
  reply: defineRoute({
    method: 'post',
    path: '/reviews/{id}/reply',
    tag: 'reviews',
    summary: 'The reviewed seller replies once, publicly, to a visible review',
    description: "Only the seller the review is about; anyone else, or a review not yet visible, is a 404. A second reply is a 409.",
    auth: 'user',
    params: ReviewPath,
    body: ReviewReplySchema,
    status: 200,
    reply: ReviewSchema,
    errors: [403, 404, 409],
  }),
  mine: defineRoute({
    method: 'get',
    path: '/user/reviews',
    tag: 'reviews',
    summary: "The caller's sales paid out, as buyer or seller, with their reviews",
    description: 'Newest first. `can_review` is true while the caller has not reviewed the sale and its window is open; the other ' +
      "party's review shows once visible.",
    auth: 'user',
    status: 200,
    reply: MySaleReviewsSchema,
  }),
  hide: defineRoute({
    method: 'post',
    path: '/admin/reviews/{id}/hide',
    tag: 'reviews',
    summary: 'Hide a review that breaks the rules, with a reason (audited)',
    description: 'Real admins only (an impersonation is a 403). The review leaves the seller page and the rating at once (a page another gateway ' +
      'rendered before may be kept for up to PAGE_CACHE_MS); hiding it again is a 409.',
    auth: 'admin',
    params: ReviewPath,
    body: HideReviewSchema,
    status: 200,
    reply: ReviewSchema,
    errors: [404, 409],
  }),
  sellerPage: defineRoute({
    method: 'get',
    path: '/sellers/{username}',
    tag: 'reviews',
    summary: "A seller's public page: profile, rating, reviews (newest first, 10 a page), sales completed and live listings",
    description: 'An unknown, suspended or deleted account is the same 404: "This account is not active."',
    auth: 'public',
    params: z.object({ username: z.string().min(1).max(100) }),
    query: SellerPageQuerySchema,
    status: 200,
    reply: SellerPageSchema,
    errors: [404],
  }),
};
