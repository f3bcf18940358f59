import { CATEGORIES } from '@market/domain';
import type { SavedSearchFilters } from '@market/contracts';
import type { BrowseParams } from '../../api/listings.api';

/** Listings per browse page (SPEC §9). */
export const PAGE_SIZE = 24;
/** Most page-number buttons the pager shows, besides Previous/Next (SPEC §9). */
export const MAX_PAGE_BUTTONS = 7;

export type ListingTypeFilter = 'all' | 'auction' | 'fixed';
export type SortBy = 'created_at' | 'price' | 'monthly_revenue';
export type SortOrder = 'asc' | 'desc';

/** The four sorts of SPEC §2; the first is the default. */
export const SORT_OPTIONS: ReadonlyArray<{ value: string; label: string; sort_by: SortBy; sort_order: SortOrder }> = [
  { value: 'created_at:desc', label: 'Newest first', sort_by: 'created_at', sort_order: 'desc' },
  { value: 'price:asc', label: 'Price: low to high', sort_by: 'price', sort_order: 'asc' },
  { value: 'price:desc', label: 'Price: high to low', sort_by: 'price', sort_order: 'desc' },
  { value: 'monthly_revenue:desc', label: 'Revenue: high to low', sort_by: 'monthly_revenue', sort_order: 'desc' },
];

/** Browse state, as read from the URL (the URL is the state, so links and back/forward work). */
export interface BrowseFilters {
  search: string;
  category: string;
  min_price: string;
  max_price: string;
  min_revenue: string;
  max_revenue: string;
  listing_type: ListingTypeFilter;
  /** Only listings whose revenue is verified by Stripe and current (D24). */
  verified_revenue: boolean;
  /** Only listings whose traffic is verified by Google Analytics and current (D24). */
  verified_traffic: boolean;
  sort_by: SortBy;
  sort_order: SortOrder;
  page: number;
}

export const DEFAULT_FILTERS: BrowseFilters = {
  search: '',
  category: '',
  min_price: '',
  max_price: '',
  min_revenue: '',
  max_revenue: '',
  listing_type: 'all',
  verified_revenue: false,
  verified_traffic: false,
  sort_by: 'created_at',
  sort_order: 'desc',
  page: 1,
};

const AMOUNT_KEYS = ['min_price', 'max_price', 'min_revenue', 'max_revenue'] as const;
/** The verified-figures filters (D24): on when the URL says `true`, as the API reads them. */
export const VERIFIED_KEYS = ['verified_revenue', 'verified_traffic'] as const;

/** A whole-dollar amount typed by a person ('1,500', ' 20 '), or '' when it is not one. */
export function cleanAmount(value: string | null | undefined): string {
  const text = (value ?? '').replace(/[,\s$]/g, '');
  if (!/^\d{1,10}$/.test(text)) return '';
  return String(Number(text));
}

/** Reads browse filters from a query string; unknown or malformed values fall back to the defaults. */
export function parseBrowseParams(params: URLSearchParams): BrowseFilters {
  const category = params.get('category') ?? '';
  const type = params.get('listing_type');
  const sort = SORT_OPTIONS.find((o) => o.sort_by === params.get('sort_by') && o.sort_order === params.get('sort_order'));
  const page = Number(params.get('page'));
  const filters: BrowseFilters = {
    ...DEFAULT_FILTERS,
    search: (params.get('search') ?? '').trim().slice(0, 200),
    category: (CATEGORIES as readonly string[]).includes(category) ? category : '',
    listing_type: type === 'auction' || type === 'fixed' ? type : 'all',
    verified_revenue: params.get('verified_revenue') === 'true',
    verified_traffic: params.get('verified_traffic') === 'true',
    sort_by: sort?.sort_by ?? DEFAULT_FILTERS.sort_by,
    sort_order: sort?.sort_order ?? DEFAULT_FILTERS.sort_order,
    page: Number.isSafeInteger(page) && page > 1 ? page : 1,
  };
  for (const key of AMOUNT_KEYS) filters[key] = cleanAmount(params.get(key));
  return filters;
}

/** The query string for the browser URL: only what differs from the defaults, so shared links stay short. */
export function toSearchParams(filters: BrowseFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.search) params.set('search', filters.search);
  if (filters.category) params.set('category', filters.category);
  for (const key of AMOUNT_KEYS) if (filters[key]) params.set(key, filters[key]);
  if (filters.listing_type !== 'all') params.set('listing_type', filters.listing_type);
  for (const key of VERIFIED_KEYS) if (filters[key]) params.set(key, 'true');
  if (filters.sort_by !== DEFAULT_FILTERS.sort_by || filters.sort_order !== DEFAULT_FILTERS.sort_order) {
    params.set('sort_by', filters.sort_by);
    params.set('sort_order', filters.sort_order);
  }
  if (filters.page > 1) params.set('page', String(filters.page));
  return params;
}

/** True when `params` holds the same pairs as the query string `search`, in any order and however encoded. */
export function sameQuery(params: URLSearchParams, search: string): boolean {
  const sorted = (query: URLSearchParams) => {
    const copy = new URLSearchParams(query);
    copy.sort();
    return copy.toString();
  };
  return sorted(params) === sorted(new URLSearchParams(search));
}

/** The GET /api/listings query for these filters (always explicit sort, page and limit). */
export function toApiParams(filters: BrowseFilters): BrowseParams {
  const params: BrowseParams = {
    sort_by: filters.sort_by,
    sort_order: filters.sort_order,
    page: String(filters.page),
    limit: String(PAGE_SIZE),
  };
  if (filters.search) params.search = filters.search;
  if (filters.category) params.category = filters.category;
  for (const key of AMOUNT_KEYS) if (filters[key]) params[key] = filters[key];
  if (filters.listing_type !== 'all') params.listing_type = filters.listing_type;
  for (const key of VERIFIED_KEYS) if (filters[key]) params[key] = 'true';
  return params;
}

/** True when any filter narrows the results (the sort and page do not). */
export function hasActiveFilters(filters: BrowseFilters): boolean {
  return Boolean(
    filters.search ||
      filters.category ||
      AMOUNT_KEYS.some((key) => filters[key]) ||
      filters.listing_type !== 'all' ||
      VERIFIED_KEYS.some((key) => filters[key]),
  );
}

/**
 * The page numbers the pager shows: all of them when they fit, otherwise a run of `max` pages kept around the
 * current page and slid back inside 1..totalPages at either end.
 */
export function pageWindow(current: number, totalPages: number, max: number = MAX_PAGE_BUTTONS): number[] {
  const total = Math.max(0, Math.trunc(totalPages));
  if (total === 0 || max < 1) return [];
  const size = Math.min(max, total);
  const page = Math.min(Math.max(1, Math.trunc(current)), total);
  const start = Math.min(Math.max(1, page - Math.floor((size - 1) / 2)), total - size + 1);
  return Array.from({ length: size }, (_, i) => start + i);
}

/** A filter choice with how many listings it would show, e.g. "Blog (1,204)"; the bare name while counts load. */
export function facetLabel(name: string, count: number | undefined): string {
  return count === undefined ? name : `${name} (${count.toLocaleString('en-US')})`;
}

/** True when browse shows more filters than a saved search can keep (the verified-figures ones, D24). */
export function hasUnsavableFilters(filters: BrowseFilters): boolean {
  return VERIFIED_KEYS.some((key) => filters[key]);
}

/** The filters a saved search keeps: browse's, without its sort and page (nor the verified-figures ones, not saved yet). */
export function savedFiltersOf(filters: BrowseFilters): SavedSearchFilters {
  const saved: SavedSearchFilters = { listing_type: filters.listing_type };
  if (filters.search) saved.search = filters.search;
  if (filters.category) saved.category = filters.category as SavedSearchFilters['category'];
  for (const key of ['min_price', 'max_price', 'min_revenue', 'max_revenue'] as const) {
    if (filters[key]) saved[key] = Number(filters[key]);
  }
  return saved;
}
