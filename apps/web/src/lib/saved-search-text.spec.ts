import { savedSearchBrowsePath, savedSearchSummary } from './saved-search-text';

describe('a saved search in words and as a browse link', () => {
  it('says every filter it has, and "All listings" with none', () => {
    expect(savedSearchSummary({ listing_type: 'all' })).toBe('All listings');
    expect(savedSearchSummary({ search: 'seo', category: 'Blog', listing_type: 'auction', max_price: 5000, min_revenue: 100, max_revenue: 900 })).toBe(
      '“seo” · Blog · Auctions · Price up to $5,000 · Revenue $100–$900',
    );
    expect(savedSearchSummary({ listing_type: 'fixed', min_price: 0 })).toBe('Fixed price · Price from $0');
  });

  it('links to browse with exactly its filters (a zero amount included)', () => {
    expect(savedSearchBrowsePath({ listing_type: 'all' })).toBe('/browse');
    const path = savedSearchBrowsePath({ search: 'seo & ads', category: 'E-commerce', listing_type: 'fixed', min_price: 0, max_revenue: 900 });
    const url = new URL(path, 'https://x.example');
    expect(url.pathname).toBe('/browse');
    expect(Object.fromEntries(url.searchParams)).toEqual({ search: 'seo & ads', category: 'E-commerce', listing_type: 'fixed', min_price: '0', max_revenue: '900' });
  });
});
