import { z } from 'zod';
import { UuidSchema } from '../common.schemas';
import { BrowseListingsQuerySchema } from './listing.schemas';

/** How many saved searches one account may keep (ADR 0074). */
export const MAX_SAVED_SEARCHES = 20;

/**
 * The browse filters a saved search keeps: browse's own schema (GET /api/listings, SPEC §2), less sort and page, so a
 * saved search means exactly what browse shows; a search names what to match, not how to show it.
 */
export const SavedSearchFiltersSchema = BrowseListingsQuerySchema.pick({
  search: true,
  category: true,
  listing_type: true,
  min_price: true,
  max_price: true,
  min_revenue: true,
  max_revenue: true,
})
  .strict()
  .superRefine((filters, ctx) => {
    if (filters.min_price !== undefined && filters.max_price !== undefined && filters.min_price > filters.max_price) {
      ctx.addIssue({ code: 'custom', path: ['max_price'], message: 'Maximum price is below the minimum' });
    }
    if (filters.min_revenue !== undefined && filters.max_revenue !== undefined && filters.min_revenue > filters.max_revenue) {
      ctx.addIssue({ code: 'custom', path: ['max_revenue'], message: 'Maximum revenue is below the minimum' });
    }
  });
export type SavedSearchFilters = z.output<typeof SavedSearchFiltersSchema>;

const name = z.string().trim().min(1, 'Give the search a name').max(80, 'At most 80 characters');

/** POST /api/user/saved-searches. */
export const CreateSavedSearchSchema = z.strictObject({
  name,
  filters: SavedSearchFiltersSchema,
  alerts: z.boolean().default(true),
}).meta({ id: 'CreateSavedSearchRequest' });
export type CreateSavedSearch = z.output<typeof CreateSavedSearchSchema>;

/** PATCH /api/user/saved-searches/{id}: a new name, alerts on or off, or both. */
export const UpdateSavedSearchSchema = z
  .strictObject({ name: name.optional(), alerts: z.boolean().optional() })
  .refine((change) => change.name !== undefined || change.alerts !== undefined, 'Nothing to change').meta({ id: 'UpdateSavedSearchRequest' });
export type UpdateSavedSearch = z.output<typeof UpdateSavedSearchSchema>;

/** listings.saved_searches.update: the search (the path's) and the change. */
export const UpdateSavedSearchRequestSchema = z.strictObject({ id: UuidSchema, change: UpdateSavedSearchSchema });

/** One saved search as its owner sees it. */
export const SavedSearchSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  filters: SavedSearchFiltersSchema,
  alerts: z.boolean(),
  /** Listings that matched it in the last 30 days. */
  matches: z.number().int(),
  created_at: z.string(),
}).meta({ id: 'SavedSearch' });
export type SavedSearchDto = z.infer<typeof SavedSearchSchema>;

export const SavedSearchesResponseSchema = z.strictObject({ saved_searches: z.array(SavedSearchSchema), limit: z.number().int() }).meta({ id: 'SavedSearchesResponse' });
export type SavedSearchesResponse = z.infer<typeof SavedSearchesResponseSchema>;

/** A signed unsubscribe token from an alert email (ADR 0074): what it stops is inside it. */
export const UnsubscribeTokenSchema = z
  .string()
  .regex(/^[a-z0-9-]{1,40}\.[A-Za-z0-9_-]{86}$/, 'Not a valid unsubscribe link')
  .meta({ example: `s-5f0c2b7e3d4a4c1e9b8a6e2f1d0c9a7b.${'Q2hlY2tlZC1ieS1saXN0aW5ncy1zZXJ2aWNl'.padEnd(86, 'x')}` });
export const UnsubscribeRequestSchema = z.strictObject({ token: UnsubscribeTokenSchema });

/** What an unsubscribe stopped, in words for the page that confirms it. */
export const UnsubscribeResponseSchema = z.strictObject({ message: z.string() }).meta({ id: 'UnsubscribeResponse' });
