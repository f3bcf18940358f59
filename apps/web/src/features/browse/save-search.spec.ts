import { SavedSearchFiltersSchema } from '@market/contracts';
import { DEFAULT_FILTERS, parseBrowseParams, savedFiltersOf } from './browse-params';

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
});
