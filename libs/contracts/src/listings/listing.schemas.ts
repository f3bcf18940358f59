import { z } from 'zod';
import {
  ADMIN_STATUSES,
  cancelReasonProblem,
  CATEGORIES,
  DEFAULT_DURATION_DAYS,
  DURATION_DAYS,
  MAX_DOLLARS,
  MAX_SCREENSHOTS,
  MONETIZATION_METHODS,
  OWNER_STATUSES,
} from '@market/domain';
import { IdRequestSchema } from '../common.schemas';
import { SCREENSHOT_KEY_PATTERN, screenshotKeyFrom } from './upload-paths';

// Multipart forms send every value as text: '' means "not given", numbers arrive as strings.
const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const toNumber = (value: unknown) => (typeof value === 'string' ? Number(value.trim()) : value);

const wholeDollars = (label: string) =>
  z.preprocess(
    toNumber,
    z
      .number({ message: `${label} must be a number` })
      .int(`${label} must be whole dollars`)
      .min(0, `${label} cannot be negative`)
      .max(MAX_DOLLARS, `${label} is too large`),
  );
const optionalDollars = (label: string) => z.preprocess(blankToUndefined, wholeDollars(label).optional());
const count = (label: string, max: number) =>
  z.preprocess(toNumber, z.number({ message: `${label} must be a number` }).int(`${label} must be a whole number`).min(0).max(max));
const optionalText = (max: number) =>
  z.preprocess(blankToUndefined, z.string().trim().max(max, `At most ${max} characters`).optional());

/** Comma-joined (create form) or repeated (edit form) monetization methods, each from the one list (D2). */
const monetization = z.preprocess(
  (value) => (typeof value === 'string' ? value.split(',').map((v) => v.trim()).filter(Boolean) : value ?? []),
  z.array(z.enum(MONETIZATION_METHODS, { message: 'Unknown monetization method' })).max(MONETIZATION_METHODS.length),
);

/** The fields a seller fills in (SPEC §7 POST /api/listings), shared by the sell wizard, the gateway and the service. */
export const ListingFieldsSchema = z.object({
  title: z.string().trim().min(5, 'Title must be at least 5 characters').max(120, 'Title must be at most 120 characters'),
  description: z.string().trim().min(20, 'Description must be at least 20 characters').max(10_000),
  category: z.enum(CATEGORIES, { message: 'Choose a category' }),
  website_url: z
    .string()
    .trim()
    .max(300)
    .refine((value) => /^https?:\/\/[^\s/$.?#][^\s]*\.[^\s]+$/i.test(value), 'Enter the full website URL, starting with http:// or https://'),
  monthly_revenue: wholeDollars('Monthly revenue'),
  annual_revenue: wholeDollars('Annual revenue'),
  monthly_traffic: count('Monthly traffic', 10_000_000_000),
  monthly_expenses: z.preprocess(blankToUndefined, wholeDollars('Monthly expenses').optional()).transform((v) => v ?? 0),
  profit_margin: z.preprocess(
    toNumber,
    z
      .number({ message: 'Profit margin must be a number' })
      .min(-100, 'Profit margin must be between -100 and 100')
      .max(100, 'Profit margin must be between -100 and 100')
      .refine((v) => Math.round(v * 10) === v * 10, 'Profit margin has at most one decimal'),
  ),
  business_age_months: count('Business age', 1200),
  monetization_methods: monetization,
  listing_type: z.enum(['auction', 'fixed']).default('auction'),
  auction_type: z.enum(['auto', 'manual']).default('auto'),
  starting_price: z.preprocess(toNumber, z.number({ message: 'Starting price must be a number' }).int('Starting price must be whole dollars').min(1, 'Starting price must be at least $1').max(MAX_DOLLARS)),
  reserve_price: optionalDollars('Reserve price'),
  buy_now_price: optionalDollars('Buy now price'),
  duration_days: z.preprocess(
    (v) => toNumber(blankToUndefined(v)),
    z
      .number()
      .refine((v) => (DURATION_DAYS as readonly number[]).includes(v), 'Duration must be 3, 7, 14 or 30 days')
      .default(DEFAULT_DURATION_DAYS),
  ).meta({ example: 7 }),
  key_metrics: optionalText(5000),
  growth_opportunities: optionalText(5000),
  included_assets: optionalText(5000),
  reason_for_selling: optionalText(5000),
});

/** The sale terms the pricing rules look at; a reserve or buy-now price that is null or undefined is none. */
export interface ListingPricing {
  listing_type: 'auction' | 'fixed';
  starting_price: number;
  reserve_price?: number | null;
  buy_now_price?: number | null;
}

/**
 * The cross-field rules: reserve and buy-now belong to auctions, above the starting price. Returns each broken rule
 * with its field (empty when all hold); the create schema applies them, and listings-service to an edit merged onto
 * the stored listing (ADR 0036).
 */
export function listingPricingIssues(listing: ListingPricing): Array<{ path: 'reserve_price' | 'buy_now_price'; message: string }> {
  const reserve = listing.reserve_price ?? null;
  const buyNow = listing.buy_now_price ?? null;
  const issues: Array<{ path: 'reserve_price' | 'buy_now_price'; message: string }> = [];
  if (listing.listing_type === 'fixed') {
    if (reserve !== null) issues.push({ path: 'reserve_price', message: 'Only auctions have a reserve price' });
    if (buyNow !== null) issues.push({ path: 'buy_now_price', message: 'Only auctions have a buy now price' });
    return issues;
  }
  if (reserve !== null && reserve < listing.starting_price) {
    issues.push({ path: 'reserve_price', message: 'Reserve price cannot be below the starting price' });
  }
  if (buyNow !== null && buyNow <= Math.max(listing.starting_price, reserve ?? 0)) {
    issues.push({ path: 'buy_now_price', message: 'Buy now price must be above the starting and reserve prices' });
  }
  return issues;
}

function pricingRules(listing: z.infer<typeof ListingFieldsSchema>, ctx: z.RefinementCtx) {
  for (const issue of listingPricingIssues(listing)) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
}

/** POST /api/listings. */
export const CreateListingSchema = ListingFieldsSchema.superRefine(pricingRules).meta({ id: 'CreateListingRequest' });
export type CreateListingInput = z.input<typeof CreateListingSchema>;
export type CreateListing = z.output<typeof CreateListingSchema>;

const BROWSE_SORTS = ['created_at', 'price', 'monthly_revenue'] as const;
const queryDollars = z.preprocess((v) => toNumber(blankToUndefined(v)), z.number().int().min(0).max(MAX_DOLLARS).optional());

/** GET /api/listings: the browse filters of SPEC §2 plus paging (24 a page) and the home page's featured flag. */
export const BrowseListingsQuerySchema = z.object({
  search: z.preprocess(blankToUndefined, z.string().trim().max(200).optional()),
  category: z.preprocess(blankToUndefined, z.enum(CATEGORIES, { message: 'Unknown category' }).optional()),
  min_price: queryDollars,
  max_price: queryDollars,
  min_revenue: queryDollars,
  max_revenue: queryDollars,
  listing_type: z.preprocess(blankToUndefined, z.enum(['all', 'auction', 'fixed']).default('all')),
  featured: z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : blankToUndefined(v)), z.boolean().optional()),
  /** Only listings whose revenue (Stripe) or traffic (GA4) is verified and current (D24); `false` or absent: no filter. */
  verified_revenue: z.preprocess((v) => v === 'true' || v === true, z.boolean()).default(false),
  verified_traffic: z.preprocess((v) => v === 'true' || v === true, z.boolean()).default(false),
  sort_by: z.preprocess(blankToUndefined, z.enum(BROWSE_SORTS).default('created_at')),
  sort_order: z.preprocess(blankToUndefined, z.enum(['asc', 'desc']).default('desc')),
  page: z.preprocess((v) => toNumber(blankToUndefined(v)), z.number().int().min(1).max(10_000).default(1)),
  limit: z.preprocess((v) => toNumber(blankToUndefined(v)), z.number().int().min(1).max(100).default(24)),
});
export type BrowseListingsQuery = z.output<typeof BrowseListingsQuerySchema>;

/** A screenshot the listing already has: its /api/uploads path or bare key; both become the key. */
export const ScreenshotRefSchema = z
  .string()
  .trim()
  .refine((value) => screenshotKeyFrom(value) !== null, 'Not a screenshot of this listing')
  .transform((value) => screenshotKeyFrom(value) as string)
  .meta({ example: '/api/uploads/0c9d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f.webp' });

// The edit form (ADR 0036): an optional field left out keeps its stored value, and one sent empty ('') clears it.
const blankToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);
const clearableDollars = (label: string) => z.preprocess(blankToNull, wholeDollars(label).nullable().optional());
const clearableText = (max: number) =>
  z.preprocess(blankToNull, z.string().trim().max(max, `At most ${max} characters`).nullable().optional());

/**
 * PATCH /api/listings/{id} multipart: the required fields of SPEC §5 again; every optional field only when it changes.
 * Left out, it keeps its stored value (so does a listing type, auction type or duration sent empty). Sent empty, it is
 * cleared: no reserve or buy-now price, no text, monthly expenses 0, no monetization methods, no screenshots kept.
 * existing_screenshots names the screenshots to keep (repeated or one value). The pricing rules are checked by the
 * service on the edit merged with the stored listing (listingPricingIssues).
 */
export const UpdateListingSchema = ListingFieldsSchema.extend({
  monthly_expenses: z.preprocess((value) => (blankToNull(value) === null ? 0 : value), wholeDollars('Monthly expenses').optional()),
  monetization_methods: z.preprocess(
    (value) => (typeof value === 'string' ? value.split(',').map((v) => v.trim()).filter(Boolean) : value),
    z.array(z.enum(MONETIZATION_METHODS, { message: 'Unknown monetization method' })).max(MONETIZATION_METHODS.length).optional(),
  ),
  listing_type: z.preprocess(blankToUndefined, z.enum(['auction', 'fixed']).optional()),
  auction_type: z.preprocess(blankToUndefined, z.enum(['auto', 'manual']).optional()),
  reserve_price: clearableDollars('Reserve price'),
  buy_now_price: clearableDollars('Buy now price'),
  duration_days: z.preprocess(
    (v) => toNumber(blankToUndefined(v)),
    z
      .number()
      .refine((v) => (DURATION_DAYS as readonly number[]).includes(v), 'Duration must be 3, 7, 14 or 30 days')
      .optional(),
  ).meta({ example: 7 }),
  key_metrics: clearableText(5000),
  growth_opportunities: clearableText(5000),
  included_assets: clearableText(5000),
  reason_for_selling: clearableText(5000),
  status: z.preprocess(blankToUndefined, z.enum(OWNER_STATUSES, { message: 'Status must be active, paused or draft' }).optional()),
  existing_screenshots: z.preprocess(
    (value) => (value === undefined ? undefined : value === '' ? [] : Array.isArray(value) ? value : [value]),
    z.array(ScreenshotRefSchema).max(MAX_SCREENSHOTS, `At most ${MAX_SCREENSHOTS} screenshots`).optional(),
  ),
}).meta({ id: 'UpdateListingRequest' });
export type UpdateListing = z.output<typeof UpdateListingSchema>;

/** PATCH /api/listings/{id} as JSON: the owner's pause/activate (SPEC §7). */
export const ListingStatusRequestSchema = z.object({ status: z.enum(OWNER_STATUSES, { message: 'Status must be active, paused or draft' }) }).strict().meta({ id: 'ListingStatusRequest' });
export type ListingStatusRequest = z.infer<typeof ListingStatusRequestSchema>;

/** PATCH /api/admin/listings/{id}: exactly one of featured or status (SPEC §7, D16). */
export const AdminUpdateListingSchema = z
  .object({ featured: z.boolean().optional(), status: z.enum(ADMIN_STATUSES, { message: 'Status must be active, pending, sold or expired' }).optional() })
  .strict()
  .refine((body) => (body.featured === undefined) !== (body.status === undefined), { message: 'Send exactly one of featured or status' })
  .meta({ id: 'AdminUpdateListingRequest', examples: [{ featured: true }] });
export type AdminUpdateListing = z.infer<typeof AdminUpdateListingSchema>;

/** POST /api/admin/listings/{id}/cancel: the reason every bidder and the seller are told (ADR 0042). */
export const AdminCancelListingSchema = z
  .object({
    reason: z
      .string({ message: 'Give the reason the bidders and the seller will read' })
      .trim()
      .superRefine((reason, ctx) => {
        const problem = cancelReasonProblem(reason);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
  })
  .strict().meta({ id: 'AdminCancelListingRequest' });
export type AdminCancelListing = z.infer<typeof AdminCancelListingSchema>;

/** GET /api/admin/listings?limit= */
export const AdminListingsQuerySchema = z.object({
  limit: z.preprocess((v) => toNumber(blankToUndefined(v)), z.number().int().min(1).max(1000).default(1000)),
});
export type AdminListingsQuery = z.output<typeof AdminListingsQuerySchema>;

/** POST /api/user/watchlist. */
export const WatchlistAddSchema = z.object({ listing_id: z.uuid({ message: 'Not a valid listing id' }) }).strict().meta({ id: 'WatchlistAddRequest' });
export type WatchlistAdd = z.infer<typeof WatchlistAddSchema>;

/** The keys of the screenshots the gateway stored for a create or edit request (at most 5, D18). */
export const ScreenshotKeysSchema = z.array(z.string().regex(SCREENSHOT_KEY_PATTERN)).max(MAX_SCREENSHOTS);

/** listings.create: the parsed form and the keys of the screenshots the gateway stored for it. */
export const CreateListingRequestSchema = z.object({ listing: CreateListingSchema, screenshots: ScreenshotKeysSchema });

/** listings.update: the listing the path names, the parsed edit form and the keys of newly stored screenshots. */
export const UpdateListingRequestSchema = IdRequestSchema.extend({ listing: UpdateListingSchema, screenshots: ScreenshotKeysSchema });

/** listings.set_status: the owner's pause/activate of the listing the path names. */
export const SetListingStatusRequestSchema = IdRequestSchema.extend(ListingStatusRequestSchema.shape);

/** listings.admin.update: the listing the path names and the admin's change. */
export const AdminUpdateListingRequestSchema = IdRequestSchema.extend({ changes: AdminUpdateListingSchema });

/** listings.admin.cancel: the listing the path names and why it is cancelled. */
export const AdminCancelListingRequestSchema = IdRequestSchema.extend(AdminCancelListingSchema.shape);

/** PUT /api/user/watchlist/reminders: emails 24 hours before a watched auction ends, on or off (ADR 0074). */
export const WatchRemindersRequestSchema = z.strictObject({ reminders: z.boolean() }).meta({ id: 'WatchRemindersRequest' });
export type WatchRemindersRequest = z.infer<typeof WatchRemindersRequestSchema>;

/** listings.watchlist.remove: the listing to stop watching (the path's). */
export const WatchlistRemoveSchema = WatchlistAddSchema;

/** listings.sale_terms (services only): the listing whose sale terms bidding-service has not heard of yet. */
/** Most listing entries one sitemap slice carries: a reply stays far below NATS's payload limit (ADR 0071). */
export const SITEMAP_SLICE_MAX = 5000;

/** listings.sitemap: which slice of the active listings (in id order) to answer, and whether to count them too. */
export const SitemapSliceRequestSchema = z
  .object({ offset: z.number().int().min(0).max(1_000_000_000), limit: z.number().int().min(1).max(SITEMAP_SLICE_MAX), with_total: z.boolean().optional() })
  .strict();

export const SaleTermsRequestSchema = z.object({ listing_id: z.uuid({ message: 'Not a valid listing id' }) }).strict();

/** listings.seller_counts (services only): the sellers to count listings of. */
export const SellerCountsRequestSchema = z.object({ user_ids: z.array(z.uuid()).max(1000) });
