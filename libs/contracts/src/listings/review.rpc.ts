import { defineRpc } from '../rpc';
import { EmptyRequestSchema } from '../common.schemas';
import {
  CreateReviewSchema,
  HideReviewRequestSchema,
  MySaleReviewsSchema,
  ReviewReplyRequestSchema,
  ReviewSchema,
  SellerPageRequestSchema,
  SellerPageSchema,
} from './review.schemas';

/** listings-service's subjects of reviews and seller pages (D23, ADR 0083), gathered into LISTINGS_RPC. */
export const REVIEW_RPC = {
  reviewCreate: defineRpc('listings.reviews.create', CreateReviewSchema, ReviewSchema),
  reviewReply: defineRpc('listings.reviews.reply', ReviewReplyRequestSchema, ReviewSchema),
  /** The caller's sales paid out, with their reviews (the Invoices row action). */
  reviewsMine: defineRpc('listings.reviews.mine', EmptyRequestSchema, MySaleReviewsSchema),
  /** A real admin hides a review that breaks the rules; audited with the reason. */
  reviewHide: defineRpc('listings.reviews.hide', HideReviewRequestSchema, ReviewSchema),
  sellerPage: defineRpc('listings.seller_page', SellerPageRequestSchema, SellerPageSchema),
};
