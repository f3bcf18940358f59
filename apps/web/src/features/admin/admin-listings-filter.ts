import type { AdminListingDto } from '@market/contracts';
import { CATEGORIES, listingStatusLabel, type ListingStatus } from '@market/domain';

/** The admin Listings tab's filters; '' means "all". */
export interface AdminListingFilters {
  search: string;
  status: '' | ListingStatus;
  category: string;
}

export const NO_FILTERS: AdminListingFilters = { search: '', status: '', category: '' };

/** The status filter's choices, in SPEC §2 order ('' is All Status). */
export const STATUS_FILTER_OPTIONS: ReadonlyArray<{ value: AdminListingFilters['status']; label: string }> = [
  { value: '', label: 'All Status' },
  { value: 'active', label: 'Active' },
  { value: 'pending', label: 'Pending Review' },
  { value: 'sold', label: 'Sold' },
  { value: 'expired', label: 'Expired' },
];

/** The category filter's choices: every category of D1 after 'All Categories'. */
export const CATEGORY_FILTER_OPTIONS: ReadonlyArray<{ value: string; label: string }> = [
  { value: '', label: 'All Categories' },
  ...CATEGORIES.map((category) => ({ value: category, label: category })),
];

type Row = Pick<AdminListingDto, 'title' | 'seller_username' | 'status' | 'category'>;

/** The rows the filters keep: search matches title or seller username (case-insensitive), status and category exactly. */
export function filterAdminListings<T extends Row>(listings: readonly T[], filters: AdminListingFilters): T[] {
  const needle = filters.search.trim().toLowerCase();
  return listings.filter(
    (listing) =>
      (!needle || listing.title.toLowerCase().includes(needle) || (listing.seller_username ?? '').toLowerCase().includes(needle)) &&
      (!filters.status || listing.status === filters.status) &&
      (!filters.category || listing.category === filters.category),
  );
}

/** One removable chip per active filter. */
export interface FilterChip {
  key: keyof AdminListingFilters;
  label: string;
}

/** The chips of the active filters, in the order of the controls. */
export function activeFilterChips(filters: AdminListingFilters): FilterChip[] {
  const chips: FilterChip[] = [];
  if (filters.search.trim()) chips.push({ key: 'search', label: `Search: "${filters.search.trim()}"` });
  if (filters.status) chips.push({ key: 'status', label: `Status: ${listingStatusLabel(filters.status)}` });
  if (filters.category) chips.push({ key: 'category', label: `Category: ${filters.category}` });
  return chips;
}

/** The filters with one of them cleared (a chip's remove button). */
export function withoutFilter(filters: AdminListingFilters, key: keyof AdminListingFilters): AdminListingFilters {
  return { ...filters, [key]: '' };
}

/** Which empty state the tab shows, or null when there are rows to show (SPEC §2). */
export function adminListingsEmptyState(total: number, shown: number): 'none-in-system' | 'none-match' | null {
  if (total === 0) return 'none-in-system';
  return shown === 0 ? 'none-match' : null;
}

/** How many listings wait for review, so the admin can find them. */
export function pendingCount(listings: ReadonlyArray<Pick<AdminListingDto, 'status'>>): number {
  return listings.filter((listing) => listing.status === 'pending').length;
}
