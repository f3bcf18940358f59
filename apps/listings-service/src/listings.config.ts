import { z } from 'zod';

/** listings-service's own settings, beside the shared service ones. */
export const listingsEnv = {
  /** How often the ending-soon sweep looks for watched auctions that end within the day (ADR 0074). */
  WATCH_REMINDER_SWEEP_MS: z.coerce.number().int().min(500).max(3_600_000).default(60_000),
  /** How long the words of live listings' titles are kept before a search that matched nothing reads them again (ADR 0080). */
  SEARCH_VOCABULARY_MAX_AGE_MS: z.coerce.number().int().min(0).max(86_400_000).default(600_000),
  /** Browse answered from the in-memory index (ADR 0081), or `off`: every browse from PostgreSQL, as before it. */
  BROWSE_INDEX: z.enum(['memory', 'off']).default('memory'),
};
export type ListingsConfig = z.infer<z.ZodObject<typeof listingsEnv>>;
export const LISTINGS_CONFIG = Symbol('LISTINGS_CONFIG');
