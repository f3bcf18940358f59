import { type FormEvent } from 'react';
import type { BrowseFacets } from '@market/contracts';
import { CATEGORIES } from '@market/domain';
import { CLAIM_FILTER_TITLE } from '../../components/listing/figure-badges';
import { cleanAmount, DEFAULT_FILTERS, facetLabel, type BrowseFilters as Filters, type ListingTypeFilter } from './browse-params';

interface BrowseFiltersProps {
  filters: Filters;
  onApply: (filters: Filters) => void;
  onClear: () => void;
  /** How many listings each category and type would show under the other filters; absent while loading. */
  facets?: BrowseFacets;
}

const text = (form: FormData, name: string) => String(form.get(name) ?? '');

/**
 * The filter form. Fields start from the URL and the parent remounts it (key) when the URL changes, so back/forward
 * and shared links show the filters they apply. Selects apply at once; typed fields on Apply (or Enter). Each category
 * and type says how many listings choosing it would show (the answer's facets). The verified-figures boxes (D24) apply
 * at once too; they keep listings whose claim is backed by a current verified figure (ADR 0084).
 */
export function BrowseFilters({ filters, onApply, onClear, facets }: BrowseFiltersProps) {
  const apply = (form: HTMLFormElement) => {
    const data = new FormData(form);
    onApply({
      ...filters,
      search: text(data, 'search').trim(),
      category: text(data, 'category'),
      min_price: cleanAmount(text(data, 'min_price')),
      max_price: cleanAmount(text(data, 'max_price')),
      min_revenue: cleanAmount(text(data, 'min_revenue')),
      max_revenue: cleanAmount(text(data, 'max_revenue')),
      listing_type: (text(data, 'listing_type') || 'all') as ListingTypeFilter,
      verified_revenue: data.get('verified_revenue') === 'true',
      verified_traffic: data.get('verified_traffic') === 'true',
      page: DEFAULT_FILTERS.page,
    });
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    apply(event.currentTarget);
  };
  const applyNow = (event: React.ChangeEvent<HTMLSelectElement | HTMLInputElement>) => {
    if (event.currentTarget.form) apply(event.currentTarget.form);
  };

  return (
    <form className="browse-filters card" onSubmit={onSubmit} role="search" aria-label="Filter listings">
      <label className="browse-field">
        <span>Search</span>
        <input type="search" name="search" defaultValue={filters.search} placeholder="Title or description" maxLength={200} />
      </label>
      <label className="browse-field">
        <span>Category</span>
        <select name="category" defaultValue={filters.category} onChange={applyNow}>
          <option value="">All categories</option>
          {CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {facetLabel(category, facets && (facets.category[category] ?? 0))}
            </option>
          ))}
        </select>
      </label>
      <label className="browse-field">
        <span>Listing type</span>
        <select name="listing_type" defaultValue={filters.listing_type} onChange={applyNow}>
          <option value="all">All types</option>
          <option value="auction">{facetLabel('Auction', facets?.listing_type.auction)}</option>
          <option value="fixed">{facetLabel('Fixed price', facets?.listing_type.fixed)}</option>
        </select>
      </label>
      <fieldset className="browse-range">
        <legend>Price ($)</legend>
        <input name="min_price" inputMode="numeric" aria-label="Minimum price" placeholder="Min" defaultValue={filters.min_price} />
        <span aria-hidden="true">–</span>
        <input name="max_price" inputMode="numeric" aria-label="Maximum price" placeholder="Max" defaultValue={filters.max_price} />
      </fieldset>
      <fieldset className="browse-range">
        <legend>Monthly revenue ($)</legend>
        <input name="min_revenue" inputMode="numeric" aria-label="Minimum monthly revenue" placeholder="Min" defaultValue={filters.min_revenue} />
        <span aria-hidden="true">–</span>
        <input name="max_revenue" inputMode="numeric" aria-label="Maximum monthly revenue" placeholder="Max" defaultValue={filters.max_revenue} />
      </fieldset>
      <fieldset className="browse-verified">
        <legend>Verified figures</legend>
        <div className="browse-checks">
          <label className="browse-check" title={CLAIM_FILTER_TITLE.revenue}>
            <input type="checkbox" name="verified_revenue" value="true" defaultChecked={filters.verified_revenue} onChange={applyNow} />
            {facetLabel('Verified revenue', facets?.verified.revenue)}
          </label>
          <label className="browse-check" title={CLAIM_FILTER_TITLE.traffic}>
            <input type="checkbox" name="verified_traffic" value="true" defaultChecked={filters.verified_traffic} onChange={applyNow} />
            {facetLabel('Verified traffic', facets?.verified.traffic)}
          </label>
        </div>
      </fieldset>
      <div className="browse-filter-actions">
        <button type="submit" className="btn btn-primary">
          Apply filters
        </button>
        <button
          type="button"
          className="btn btn-ghost"
          onClick={(event) => {
            // What was typed but not applied goes too: when nothing was applied, Clear changes no address and nothing
            // else would empty the fields. The fields go back to the address's filters, which the clear then empties.
            event.currentTarget.form?.reset();
            onClear();
          }}
        >
          Clear
        </button>
      </div>
    </form>
  );
}
