import { dashboardRows, listLoadFailed, newestListings, ownerToggle } from './dashboard-lists';

describe('dashboard lists', () => {
  const rows = [{ id: 'a' }, { id: 'b' }];

  it('shows loaded rows when there is no error', () => {
    expect(dashboardRows(rows, undefined)).toEqual(rows);
    expect(dashboardRows(undefined, undefined)).toEqual([]);
  });

  it('keeps the rows after a 401 and clears them after any other failure (SPEC §8)', () => {
    expect(dashboardRows(rows, { status: 401, data: { detail: 'Not authenticated' } })).toEqual(rows);
    expect(dashboardRows(rows, { status: 500, data: { detail: 'boom' } })).toEqual([]);
    expect(dashboardRows(rows, { status: 'FETCH_ERROR', error: 'offline' })).toEqual([]);
  });

  it('counts every failure but a 401 as a failed load', () => {
    expect(listLoadFailed(undefined)).toBe(false);
    expect(listLoadFailed({ status: 401, data: { detail: 'Not authenticated' } })).toBe(false);
    expect(listLoadFailed({ status: 500, data: { detail: 'boom' } })).toBe(true);
    expect(listLoadFailed({ status: 'FETCH_ERROR', error: 'offline' })).toBe(true);
  });

  it('picks the newest listings first', () => {
    const listings = [
      { id: '1', created_at: '2026-11-01T10:00:00Z' },
      { id: '2', created_at: '2026-11-20T10:00:00Z' },
      { id: '3', created_at: '2026-11-10T10:00:00Z' },
      { id: '4', created_at: '2026-11-21T09:00:00Z' },
    ];
    expect(newestListings(listings, 3).map((l) => l.id)).toEqual(['4', '2', '3']);
    expect(newestListings(listings.slice(0, 1), 3).map((l) => l.id)).toEqual(['1']);
    expect(listings.map((l) => l.id)).toEqual(['1', '2', '3', '4']);
  });

  it('offers Pause for active, Activate for paused and nothing otherwise', () => {
    expect(ownerToggle('active')).toEqual({ label: 'Pause', status: 'paused' });
    expect(ownerToggle('paused')).toEqual({ label: 'Activate', status: 'active' });
    for (const status of ['pending', 'draft', 'sold', 'expired'] as const) expect(ownerToggle(status)).toBeNull();
  });
});
