import { SavedSearchFiltersSchema } from '@market/contracts';
import { DEFAULT_FILTERS, hasUnsavableFilters, parseBrowseParams, savedFiltersOf } from './browse-params';

describe('the filters a saved search keeps from browse', () => {
  it('keeps what narrows the results, drops sort and page, and passes the API schema', () => {
    const filters = parseBrowseParams(new URLSearchParams('search=seo&category=Blog&min_price=1,500&listing_type=auction&sort_by=price&sort_order=asc&page=3'));
    const saved = savedFiltersOf(filters);
    expect(saved).toEqual({ search: 'seo', category: 'Blog', min_price: 1500, listing_type: 'auction' });
    expect(SavedSearchFiltersSchema.parse(saved)).toEqual(saved);
  });

  it('saves no filters as every listing', () => {
    expect(savedFiltersOf(DEFAULT_FILTERS)).toEqual({ listing_type: 'all' });
  });

  it('cannot keep the verified-figures filters yet, and says so (the saved-search contract has no place for them)', () => {
    const filters = parseBrowseParams(new URLSearchParams('category=Blog&verified_revenue=true'));
    expect(hasUnsavableFilters(filters)).toBe(true);
    expect(SavedSearchFiltersSchema.parse(savedFiltersOf(filters))).toEqual({ category: 'Blog', listing_type: 'all' });
    expect(hasUnsavableFilters(DEFAULT_FILTERS)).toBe(false);
  });
});
