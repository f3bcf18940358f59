import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useBrowseListingsQuery } from '../../api/listings.api';
import { ListingCard } from '../../components/listing/ListingCard';
import { BrowseFilters } from './BrowseFilters';
import { Pagination } from './Pagination';
import { SaveSearchButton } from './SaveSearchButton';
import {
  DEFAULT_FILTERS,
  SORT_OPTIONS,
  hasActiveFilters,
  parseBrowseParams,
  sameQuery,
  toApiParams,
  toSearchParams,
  type BrowseFilters as Filters,
} from './browse-params';
import { useViewMode } from './view-mode';
import { usePageMeta } from '../../lib/page-meta';
import './browse.css';

const countLabel = (total: number) => `${total.toLocaleString('en-US')} ${total === 1 ? 'listing' : 'listings'}`;

/** /browse: filters, sorts, pages and grid/list view over the active listings; the URL holds every choice. */
export function BrowsePage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => parseBrowseParams(searchParams), [searchParams]);
  // The canonical address names only the filters browse knows, in one order: tracking or junk parameters make no
  // second page for search engines (ADR 0072).
  const canonical = toSearchParams(filters).toString();
  usePageMeta({
    title: filters.category ? `${filters.category} websites for sale` : 'Browse websites for sale',
    description: 'Blogs, e-commerce stores, SaaS, content and affiliate sites for sale: filter by category, price and type.',
    url: canonical ? `/browse?${canonical}` : '/browse',
  });
  const apiParams = useMemo(() => toApiParams(filters), [filters]);
  const { currentData, error, isFetching, refetch } = useBrowseListingsQuery(apiParams);
  const [viewMode, setViewMode] = useViewMode();

  useEffect(() => {
    if (error) console.error('Error loading listings', error);
  }, [error]);

  const go = (next: Filters) => {
    const target = toSearchParams(next);
    // Asking for the address already shown (the same category again, Clear with nothing set) adds no step to Back, which
    // would then seem to do nothing (ADR 0072, amended). It is compared with the address, not with `searchParams`: the
    // router has pushed by the time setSearchParams returns (this route has no loader), while the page re-renders in a
    // transition, so a second event can arrive before `searchParams` says so.
    if (sameQuery(target, window.location.search)) return;
    setSearchParams(target);
  };
  const onPage = (page: number) => {
    go({ ...filters, page });
    window.scrollTo({ top: 0 });
  };
  const onSort = (value: string) => {
    const sort = SORT_OPTIONS.find((o) => o.value === value) ?? SORT_OPTIONS[0];
    go({ ...filters, sort_by: sort.sort_by, sort_order: sort.sort_order, page: 1 });
  };
  const clear = () => go({ ...DEFAULT_FILTERS, sort_by: filters.sort_by, sort_order: filters.sort_order });

  const loading = isFetching && !currentData;
  const listings = currentData?.listings ?? [];

  return (
    <div className="container section browse-page">
      <h1>Browse websites for sale</h1>
      <div className="browse-layout">
        <BrowseFilters key={searchParams.toString()} filters={filters} onApply={go} onClear={clear} facets={currentData?.facets} />
        <div className="browse-results">
          <div className="browse-toolbar">
            <p className="browse-count" aria-live="polite" data-testid="result-count">
              {currentData ? countLabel(currentData.total) : '\u00a0'}
            </p>
            <SaveSearchButton filters={filters} />
            <label className="browse-sort">
              <span>Sort by</span>
              <select value={`${filters.sort_by}:${filters.sort_order}`} onChange={(e) => onSort(e.target.value)}>
                {SORT_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            </label>
            <div className="view-toggle" role="group" aria-label="View">
              {(['grid', 'list'] as const).map((mode) => (
                <button
                  key={mode}
                  type="button"
                  className={`btn btn-small ${viewMode === mode ? 'btn-primary' : 'btn-ghost'}`}
                  aria-pressed={viewMode === mode}
                  onClick={() => setViewMode(mode)}
                >
                  {mode === 'grid' ? 'Grid view' : 'List view'}
                </button>
              ))}
            </div>
          </div>

          {currentData?.corrected_search && (
            // The search as typed matched nothing; these are its correction's listings (ADR 0080).
            <p className="browse-correction" data-testid="search-correction">
              No listings match “{filters.search}”. Showing results for{' '}
              <button type="button" className="link-button" onClick={() => go({ ...filters, search: currentData.corrected_search ?? '', page: 1 })}>
                “{currentData.corrected_search}”
              </button>
              .
            </p>
          )}
          {loading && (
            <div className="browse-state" role="status">
              <div className="spinner" aria-hidden="true" />
              Loading listings...
            </div>
          )}
          {error && !isFetching && (
            <div className="alert alert-error" role="alert">
              We could not load listings right now.{' '}
              <button type="button" className="btn btn-small btn-ghost" onClick={() => refetch()}>
                Try again
              </button>
            </div>
          )}
          {currentData && listings.length === 0 && (
            <div className="browse-state card">
              <p>No listings found matching your criteria.</p>
              {hasActiveFilters(filters) && (
                <button type="button" className="btn btn-secondary" onClick={clear}>
                  Clear filters
                </button>
              )}
            </div>
          )}
          {listings.length > 0 && (
            <div
              className={`browse-${viewMode}${isFetching ? ' browse-refreshing' : ''}`}
              data-testid="browse-results"
              aria-busy={isFetching}
            >
              {listings.map((listing, index) => (
                <ListingCard key={listing.id} listing={listing} layout={viewMode} priority={index === 0} />
              ))}
            </div>
          )}
          {currentData && <Pagination page={filters.page} pages={currentData.pages} onPage={onPage} />}
        </div>
      </div>
    </div>
  );
}
