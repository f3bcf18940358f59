import type { Dispatch, SetStateAction } from 'react';
import { FilterSelect } from '../../components/form/FilterSelect';
import { activeFilterChips, CATEGORY_FILTER_OPTIONS, NO_FILTERS, STATUS_FILTER_OPTIONS, withoutFilter, type AdminListingFilters } from './admin-listings-filter';

/** The admin Listings tab's search, filters, pending-review shortcut and the chips of what is filtered (SPEC §2). */
export function AdminListingsFilters({
  filters,
  setFilters,
  waiting,
}: {
  filters: AdminListingFilters;
  setFilters: Dispatch<SetStateAction<AdminListingFilters>>;
  waiting: number;
}) {
  const chips = activeFilterChips(filters);
  const setFilter = (key: keyof AdminListingFilters, value: string) => setFilters((current) => ({ ...current, [key]: value }));
  return (
    <>
        <div className="filters admin-listings-filters">
          <label className="admin-listings-search">
            Search
            <input
              type="search"
              aria-label="Search"
              placeholder="Title or seller username"
              value={filters.search}
              onChange={(event) => setFilter('search', event.target.value)}
            />
          </label>
          <FilterSelect label="Status" value={filters.status} options={STATUS_FILTER_OPTIONS} onChange={(value) => setFilter('status', value)} />
          <FilterSelect label="Category" value={filters.category} options={CATEGORY_FILTER_OPTIONS} onChange={(value) => setFilter('category', value)} />
          {waiting > 0 && filters.status !== 'pending' && (
            <button type="button" className="btn btn-secondary btn-tiny pending-review-link" onClick={() => setFilter('status', 'pending')}>
              {waiting} pending review
            </button>
          )}
          {waiting > 0 && filters.status === 'pending' && <span className="badge admin-pending-badge pending-review-link">{waiting} pending review</span>}
        </div>

        {chips.length > 0 && (
          <div className="filter-chips" aria-label="Active filters">
            {chips.map((chip) => (
              <span className="filter-chip" key={chip.key}>
                {chip.label}
                <button type="button" aria-label={`Remove filter ${chip.label}`} onClick={() => setFilters((current) => withoutFilter(current, chip.key))}>
                  ×
                </button>
              </span>
            ))}
            <button type="button" className="link-button filter-chips-clear" onClick={() => setFilters(NO_FILTERS)}>
              Clear all
            </button>
          </div>
        )}
    </>
  );
}
