import { z } from 'zod';
import { hasBidiControl, REVIEW_HIDE_REASON_MAX, REVIEW_HIDE_REASON_MIN, REVIEW_TEXT_MAX, REVIEW_TEXT_MIN, reviewTextLength } from '@market/domain';
import { IsoDateTimeSchema, UuidSchema } from '../common.schemas';
import { ListingCardSchema } from './listing.dto';

/**
 * Text people write about each other (D23): at most 1000 characters once trimmed, counting only what shows (no
 * zero-width padding) and never a bidi override; stored trimmed, always shown as plain text. A review needs 10.
 */
const writtenText = (min: number) =>
  z
    .string()
    .max(REVIEW_TEXT_MAX * 4, `At most ${REVIEW_TEXT_MAX} characters`)
    .transform((text) => text.trim())
    .refine((text) => reviewTextLength(text) >= min, min > 1 ? `At least ${min} characters` : 'Write a reply')
    .refine((text) => reviewTextLength(text) <= REVIEW_TEXT_MAX, `At most ${REVIEW_TEXT_MAX} characters`)
    .refine((text) => !hasBidiControl(text), 'Remove the text-direction control characters');
const reviewText = writtenText(REVIEW_TEXT_MIN).meta({ example: 'Smooth handover: the seller answered every question and the transfer took two days.' });
const replyText = writtenText(1).meta({ example: 'Thank you, enjoy the site!' });

const stars = z.number({ message: 'Give 1 to 5 stars' }).int('Give 1 to 5 stars').min(1, 'Give 1 to 5 stars').max(5, 'Give 1 to 5 stars');

/** POST /api/reviews: one party's review of the other for a sale paid out (D23). */
export const CreateReviewSchema = z.strictObject({ invoice_id: UuidSchema, stars, text: reviewText }).meta({ id: 'CreateReviewRequest' });
export type CreateReview = z.output<typeof CreateReviewSchema>;

/** POST /api/reviews/{id}/reply: the reviewed seller's one public reply (1 to 1000 characters: a thank-you is a reply). */
export const ReviewReplySchema = z.strictObject({ text: replyText }).meta({ id: 'ReviewReplyRequest' });
export type ReviewReply = z.output<typeof ReviewReplySchema>;
export const ReviewReplyRequestSchema = z.strictObject({ id: UuidSchema, reply: ReviewReplySchema });

/** POST /api/admin/reviews/{id}/hide: why the review breaks the rules (kept in the audit log). */
export const HideReviewSchema = z
  .strictObject({
    reason: z
      .string()
      .trim()
      .min(REVIEW_HIDE_REASON_MIN, `Say why in at least ${REVIEW_HIDE_REASON_MIN} characters`)
      .max(REVIEW_HIDE_REASON_MAX, `At most ${REVIEW_HIDE_REASON_MAX} characters`),
  })
  .meta({ id: 'HideReviewRequest' });
export type HideReview = z.output<typeof HideReviewSchema>;
export const HideReviewRequestSchema = z.strictObject({ id: UuidSchema, hide: HideReviewSchema });

const person = z.strictObject({ username: z.string(), name: z.string().nullable() }).meta({ id: 'ReviewParty' });

/** One review as anyone may read it once visible. */
export const ReviewSchema = z
  .strictObject({
    id: z.uuid(),
    stars: z.number().int(),
    text: z.string(),
    author: person,
    author_role: z.enum(['buyer', 'seller']),
    website_title: z.string(),
    reply: z.strictObject({ text: z.string(), created_at: IsoDateTimeSchema }).nullable(),
    created_at: IsoDateTimeSchema,
  })
  .meta({ id: 'Review' });
export type ReviewDto = z.infer<typeof ReviewSchema>;

/** A sale paid out, as one of its parties sees its reviews (the Invoices row action). */
export const SaleReviewStateSchema = z
  .strictObject({
    invoice_id: z.uuid(),
    invoice_number: z.string(),
    website_title: z.string(),
    role: z.enum(['buyer', 'seller']),
    other_party: person,
    completed_at: IsoDateTimeSchema,
    closes_at: IsoDateTimeSchema,
    /** True while the caller has not reviewed and the window is open. */
    can_review: z.boolean(),
    mine: ReviewSchema.nullable(),
    /** The other party's review of the caller, once visible. */
    theirs: ReviewSchema.nullable(),
  })
  .meta({ id: 'SaleReviewState' });
export type SaleReviewStateDto = z.infer<typeof SaleReviewStateSchema>;

export const MySaleReviewsSchema = z.strictObject({ sales: z.array(SaleReviewStateSchema) }).meta({ id: 'MySaleReviews' });
export type MySaleReviews = z.infer<typeof MySaleReviewsSchema>;

const username = z.string().trim().min(1).max(100);
const page = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : v === '' ? undefined : v),
  z.number().int().min(1).max(1000).default(1),
);

/** GET /api/sellers/{username}: the page of reviews to show. */
export const SellerPageQuerySchema = z.object({ page });
export type SellerPageQuery = z.output<typeof SellerPageQuerySchema>;
export const SellerPageRequestSchema = z.strictObject({ username, page });

/** A seller's public page (/seller/{username}): who they are, their rating with reviews, sales and live listings. */
export const SellerPageSchema = z
  .strictObject({
    seller: z.strictObject({
      id: z.uuid(),
      username: z.string(),
      name: z.string().nullable(),
      verified: z.boolean(),
      member_since: IsoDateTimeSchema,
      rating: z.number().nullable(),
      review_count: z.number().int(),
      total_transactions: z.number().int(),
    }),
    reviews: z.array(ReviewSchema),
    page: z.number().int(),
    pages: z.number().int(),
    listings: z.array(ListingCardSchema),
    /** How many live listings the seller has (the page shows the newest 24). */
    listing_count: z.number().int(),
  })
  .meta({ id: 'SellerPage' });
export type SellerPageDto = z.infer<typeof SellerPageSchema>;

/** How many reviews a seller page shows at a time, and how many live listings. */
export const SELLER_PAGE_REVIEWS = 10;
export const SELLER_PAGE_LISTINGS = 24;
