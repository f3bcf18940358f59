import { formatDollars } from '@market/domain';
import type { SavedSearchFilters } from '@market/contracts';

type Filters = Partial<SavedSearchFilters>;

function range(label: string, min: number | undefined, max: number | undefined): string | null {
  if (min !== undefined && max !== undefined) return `${label} ${formatDollars(min)}–${formatDollars(max)}`;
  if (min !== undefined) return `${label} from ${formatDollars(min)}`;
  if (max !== undefined) return `${label} up to ${formatDollars(max)}`;
  return null;
}

/** A saved search's filters in words, e.g. `"seo" · Blog · Auctions · Price up to $5,000`; "All listings" with none. */
export function savedSearchSummary(filters: Filters): string {
  const parts = [
    filters.search ? `“${filters.search}”` : null,
    filters.category ?? null,
    filters.listing_type === 'auction' ? 'Auctions' : filters.listing_type === 'fixed' ? 'Fixed price' : null,
    range('Price', filters.min_price, filters.max_price),
    range('Revenue', filters.min_revenue, filters.max_revenue),
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(' · ') : 'All listings';
}

/** The browse page showing a saved search's listings now. */
export function savedSearchBrowsePath(filters: Filters): string {
  const params = new URLSearchParams();
  if (filters.search) params.set('search', filters.search);
  if (filters.category) params.set('category', filters.category);
  for (const key of ['min_price', 'max_price', 'min_revenue', 'max_revenue'] as const) {
    if (filters[key] !== undefined) params.set(key, String(filters[key]));
  }
  if (filters.listing_type && filters.listing_type !== 'all') params.set('listing_type', filters.listing_type);
  const query = params.toString();
  return query ? `/browse?${query}` : '/browse';
}
