import type { ServiceDatabase } from '@market/server-kit';
import { CreateListings1763800600000 } from './migrations/1763800600000-create-listings';
import { CreateWatchlist1763800700000 } from './migrations/1763800700000-create-watchlist';
import { BrowseCountsAndSortIndexes1763800800000 } from './migrations/1763800800000-browse-counts-and-sort-indexes';
import { PriceVersionAndModeration1764510100000 } from './migrations/1764510100000-price-version-and-moderation';
import { ListingOwnership1764530000000 } from './migrations/1764530000000-listing-ownership';
import { ListingCancellation1764540000000 } from './migrations/1764540000000-listing-cancellation';
import { UnwoundSales1764550200000 } from './migrations/1764550200000-unwound-sales';
import { RefundedSales1765000100000 } from './migrations/1765000100000-refunded-sales';
import { SavedSearches1765100000000 } from './migrations/1765100000000-saved-searches';
import { WatchReminders1765100000001 } from './migrations/1765100000001-watch-reminders';
import { BrowseChanges1765200000000 } from './migrations/1765200000000-browse-changes';
import { SaleReviews1765300000000 } from './migrations/1765300000000-sale-reviews';
import { VerifiedFigures1765400000000 } from './migrations/1765400000000-verified-figures';
import { VerifiedBrowse1765400000001 } from './migrations/1765400000001-verified-browse';

/** The `listings` schema: what the listings-service and its migrate step (ADR 0053) open. */
export const LISTINGS_DATABASE: ServiceDatabase = {
  schema: 'listings',
  entities: [],
  migrations: [CreateListings1763800600000, CreateWatchlist1763800700000, BrowseCountsAndSortIndexes1763800800000, PriceVersionAndModeration1764510100000, ListingOwnership1764530000000, ListingCancellation1764540000000, UnwoundSales1764550200000, RefundedSales1765000100000, SavedSearches1765100000000, WatchReminders1765100000001, BrowseChanges1765200000000, SaleReviews1765300000000, VerifiedFigures1765400000000, VerifiedBrowse1765400000001],
};
