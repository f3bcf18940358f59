import {
  activeFilterChips,
  adminListingsEmptyState,
  CATEGORY_FILTER_OPTIONS,
  filterAdminListings,
  NO_FILTERS,
  pendingCount,
  STATUS_FILTER_OPTIONS,
  withoutFilter,
} from './admin-listings-filter';

const rows = [
  { id: '1', title: 'Cooking Blog', seller_username: 'alice', status: 'active' as const, category: 'Blog' },
  { id: '2', title: 'Shoe Shop', seller_username: 'bob', status: 'pending' as const, category: 'E-commerce' },
  { id: '3', title: 'Invoice SaaS', seller_username: 'Alicia', status: 'pending' as const, category: 'SaaS' },
  { id: '4', title: 'Old News', seller_username: null, status: 'expired' as const, category: 'Newsletter' },
];

describe('admin listings filters', () => {
  it('keeps everything without filters', () => {
    expect(filterAdminListings(rows, NO_FILTERS).map((r) => r.id)).toEqual(['1', '2', '3', '4']);
  });

  it('searches title and seller username, ignoring case and outer spaces', () => {
    expect(filterAdminListings(rows, { ...NO_FILTERS, search: '  ALI ' }).map((r) => r.id)).toEqual(['1', '3']);
    expect(filterAdminListings(rows, { ...NO_FILTERS, search: 'shoe' }).map((r) => r.id)).toEqual(['2']);
    expect(filterAdminListings(rows, { ...NO_FILTERS, search: 'nobody' })).toEqual([]);
  });

  it('combines status and category with the search', () => {
    expect(filterAdminListings(rows, { ...NO_FILTERS, status: 'pending' }).map((r) => r.id)).toEqual(['2', '3']);
    expect(filterAdminListings(rows, { ...NO_FILTERS, status: 'pending', category: 'SaaS' }).map((r) => r.id)).toEqual(['3']);
    expect(filterAdminListings(rows, { search: 'bob', status: 'pending', category: 'SaaS' })).toEqual([]);
  });

  it('offers the SPEC status list and all eight categories', () => {
    expect(STATUS_FILTER_OPTIONS.map((o) => o.label)).toEqual(['All Status', 'Active', 'Pending Review', 'Sold', 'Expired']);
    expect(STATUS_FILTER_OPTIONS.find((o) => o.label === 'Pending Review')?.value).toBe('pending');
    expect(CATEGORY_FILTER_OPTIONS).toHaveLength(9);
    expect(CATEGORY_FILTER_OPTIONS.map((o) => o.value)).toContain('Newsletter');
  });

  it('makes one chip per active filter and removes them one by one', () => {
    expect(activeFilterChips(NO_FILTERS)).toEqual([]);
    expect(activeFilterChips({ ...NO_FILTERS, search: '   ' })).toEqual([]);
    const filters = { search: ' shop ', status: 'pending' as const, category: 'Blog' };
    expect(activeFilterChips(filters)).toEqual([
      { key: 'search', label: 'Search: "shop"' },
      { key: 'status', label: 'Status: Pending Review' },
      { key: 'category', label: 'Category: Blog' },
    ]);
    const fewer = withoutFilter(filters, 'status');
    expect(fewer).toEqual({ search: ' shop ', status: '', category: 'Blog' });
    expect(activeFilterChips(fewer).map((c) => c.key)).toEqual(['search', 'category']);
  });

  it('picks the empty state and counts pending listings', () => {
    expect(adminListingsEmptyState(0, 0)).toBe('none-in-system');
    expect(adminListingsEmptyState(4, 0)).toBe('none-match');
    expect(adminListingsEmptyState(4, 2)).toBeNull();
    expect(pendingCount(rows)).toBe(2);
    expect(pendingCount([])).toBe(0);
  });
});
