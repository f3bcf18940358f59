import {
  facetLabel,
  DEFAULT_FILTERS,
  cleanAmount,
  hasActiveFilters,
  pageWindow,
  parseBrowseParams,
  sameQuery,
  toApiParams,
  toSearchParams,
} from './browse-params';

describe('pageWindow', () => {
  it('shows every page when there are at most seven', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(3, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(7, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
  it('keeps the current page in the middle of seven buttons', () => {
    expect(pageWindow(10, 20)).toEqual([7, 8, 9, 10, 11, 12, 13]);
    expect(pageWindow(5, 8)).toEqual([2, 3, 4, 5, 6, 7, 8]);
  });
  it('slides the window back inside the range at either end', () => {
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageWindow(3, 20)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageWindow(20, 20)).toEqual([14, 15, 16, 17, 18, 19, 20]);
    expect(pageWindow(18, 20)).toEqual([14, 15, 16, 17, 18, 19, 20]);
  });
  it('never shows more than seven buttons and clamps pages out of range', () => {
    for (let page = -2; page <= 60; page++) {
      const window = pageWindow(page, 50);
      expect(window).toHaveLength(7);
      expect(window[0]).toBeGreaterThanOrEqual(1);
      expect(window[6]).toBeLessThanOrEqual(50);
    }
    expect(pageWindow(99, 4)).toEqual([1, 2, 3, 4]);
  });
  it('shows nothing when there are no pages', () => {
    expect(pageWindow(1, 0)).toEqual([]);
  });
  it('honours a smaller maximum', () => {
    expect(pageWindow(6, 10, 4)).toEqual([5, 6, 7, 8]);
  });
});

describe('parseBrowseParams', () => {
  it('reads every browse parameter', () => {
    const filters = parseBrowseParams(
      new URLSearchParams(
        'search=%20recipes%20&category=SaaS&min_price=100&max_price=5000&min_revenue=10&max_revenue=900&listing_type=auction&sort_by=price&sort_order=asc&page=3',
      ),
    );
    expect(filters).toEqual({
      search: 'recipes',
      category: 'SaaS',
      min_price: '100',
      max_price: '5000',
      min_revenue: '10',
      max_revenue: '900',
      listing_type: 'auction',
      verified_revenue: false,
      verified_traffic: false,
      sort_by: 'price',
      sort_order: 'asc',
      page: 3,
    });
  });
  it('reads the verified-figures filters as on only when the URL says true (D24)', () => {
    expect(parseBrowseParams(new URLSearchParams('verified_revenue=true&verified_traffic=true'))).toMatchObject({ verified_revenue: true, verified_traffic: true });
    expect(parseBrowseParams(new URLSearchParams('verified_revenue=1&verified_traffic=yes'))).toMatchObject({ verified_revenue: false, verified_traffic: false });
    expect(parseBrowseParams(new URLSearchParams('verified_traffic=true'))).toMatchObject({ verified_revenue: false, verified_traffic: true });
  });
  it('falls back to the defaults for unknown or malformed values', () => {
    const filters = parseBrowseParams(
      new URLSearchParams('category=Casino&min_price=-5&max_price=abc&listing_type=raffle&sort_by=title&sort_order=asc&page=0'),
    );
    expect(filters).toEqual(DEFAULT_FILTERS);
  });
  it('accepts only the four sorts of the spec', () => {
    expect(parseBrowseParams(new URLSearchParams('sort_by=monthly_revenue&sort_order=desc')).sort_by).toBe('monthly_revenue');
    expect(parseBrowseParams(new URLSearchParams('sort_by=monthly_revenue&sort_order=asc')).sort_by).toBe('created_at');
    expect(parseBrowseParams(new URLSearchParams('sort_by=price&sort_order=desc')).sort_order).toBe('desc');
  });
  it('accepts every category of the one list (D1)', () => {
    expect(parseBrowseParams(new URLSearchParams('category=Newsletter')).category).toBe('Newsletter');
  });
});

describe('cleanAmount', () => {
  it('keeps whole dollars and strips separators', () => {
    expect(cleanAmount('1,500')).toBe('1500');
    expect(cleanAmount(' $20 ')).toBe('20');
    expect(cleanAmount('007')).toBe('7');
  });
  it('drops anything else', () => {
    expect(cleanAmount('1.5')).toBe('');
    expect(cleanAmount('1e9')).toBe('');
    expect(cleanAmount(null)).toBe('');
  });
});

describe('URL and API query strings', () => {
  it('writes only non-default values to the URL, and reads them back unchanged', () => {
    expect(toSearchParams(DEFAULT_FILTERS).toString()).toBe('');
    const filters = { ...DEFAULT_FILTERS, search: 'dog blog', category: 'Blog', max_price: '900', listing_type: 'fixed' as const, sort_by: 'price' as const, sort_order: 'asc' as const, page: 2 };
    const url = toSearchParams(filters);
    expect(url.toString()).toBe('search=dog+blog&category=Blog&max_price=900&listing_type=fixed&sort_by=price&sort_order=asc&page=2');
    expect(parseBrowseParams(url)).toEqual(filters);
  });
  it('always asks the API for 24 per page with an explicit sort', () => {
    expect(toApiParams(DEFAULT_FILTERS)).toEqual({ sort_by: 'created_at', sort_order: 'desc', page: '1', limit: '24' });
    expect(toApiParams({ ...DEFAULT_FILTERS, listing_type: 'auction', min_revenue: '50' })).toMatchObject({ listing_type: 'auction', min_revenue: '50' });
  });
  it('keeps the verified-figures filters in the URL and asks the API for them, only when on', () => {
    const filters = { ...DEFAULT_FILTERS, category: 'SaaS', verified_revenue: true, verified_traffic: true, page: 2 };
    const url = toSearchParams(filters);
    expect(url.toString()).toBe('category=SaaS&verified_revenue=true&verified_traffic=true&page=2');
    expect(parseBrowseParams(url)).toEqual(filters);
    expect(toApiParams(filters)).toMatchObject({ verified_revenue: 'true', verified_traffic: 'true' });
    expect(toApiParams({ ...DEFAULT_FILTERS, verified_traffic: true })).not.toHaveProperty('verified_revenue');
    expect(toSearchParams({ ...DEFAULT_FILTERS, verified_revenue: false }).toString()).toBe('');
  });
  it('knows an address that already shows the filters, in any order or encoding, and no other', () => {
    const url = toSearchParams({ ...DEFAULT_FILTERS, search: 'dog blog', category: 'Blog' });
    expect(sameQuery(url, '?search=dog+blog&category=Blog')).toBe(true);
    expect(sameQuery(url, '?category=Blog&search=dog%20blog')).toBe(true);
    expect(sameQuery(url, '?search=dog+blog')).toBe(false);
    expect(sameQuery(url, '?search=dog+blog&category=Blog&page=2')).toBe(false);
    expect(sameQuery(toSearchParams(DEFAULT_FILTERS), '')).toBe(true);
    expect(sameQuery(toSearchParams(DEFAULT_FILTERS), '?category=SaaS')).toBe(false);
  });
  it('tells whether anything narrows the results', () => {
    expect(hasActiveFilters(DEFAULT_FILTERS)).toBe(false);
    expect(hasActiveFilters({ ...DEFAULT_FILTERS, page: 4, sort_by: 'price' })).toBe(false);
    expect(hasActiveFilters({ ...DEFAULT_FILTERS, min_price: '1' })).toBe(true);
    expect(hasActiveFilters({ ...DEFAULT_FILTERS, verified_traffic: true })).toBe(true);
  });
});

describe('facetLabel', () => {
  it('adds the count, grouped, and leaves the name bare while counts load', () => {
    expect(facetLabel('Blog', 1204)).toBe('Blog (1,204)');
    expect(facetLabel('Fixed price', 0)).toBe('Fixed price (0)');
    expect(facetLabel('SaaS', undefined)).toBe('SaaS');
  });
});
