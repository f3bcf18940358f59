import { acceptsBids, isPubliclyVisible, LISTING_STATUSES, listingStatusLabel, ownerStatusChange, type ListingStatus } from './listing-status.rules';
import { formatBusinessAge, formatTraffic, monthlyProfit, timeRemainingLabel } from './listing-metrics.rules';

describe('ownerStatusChange (D16)', () => {
  const approved = { approved: true, autoApprove: false };
  const fresh = { approved: false, autoApprove: false };

  it.each<[ListingStatus, ListingStatus, ListingStatus]>([
    ['active', 'paused', 'paused'],
    ['paused', 'active', 'active'],
    ['active', 'draft', 'draft'],
    ['paused', 'draft', 'draft'],
    ['pending', 'draft', 'draft'],
    ['active', 'active', 'active'],
  ])('%s -> %s gives %s', (from, to, result) => {
    expect(ownerStatusChange(from, to, approved)).toEqual({ status: result });
  });

  it('sends a never-approved draft to review, unless auto-approve is on', () => {
    expect(ownerStatusChange('draft', 'active', fresh)).toEqual({ status: 'pending' });
    expect(ownerStatusChange('draft', 'active', { approved: false, autoApprove: true })).toEqual({ status: 'active' });
    expect(ownerStatusChange('draft', 'active', approved)).toEqual({ status: 'active' });
  });

  it('refuses what owners may not do', () => {
    expect(ownerStatusChange('active', 'sold', approved)).toHaveProperty('refused');
    expect(ownerStatusChange('active', 'pending', approved)).toHaveProperty('refused');
    expect(ownerStatusChange('sold', 'active', approved)).toEqual({ refused: 'A sold listing cannot be changed' });
    expect(ownerStatusChange('expired', 'draft', approved)).toHaveProperty('refused');
    expect(ownerStatusChange('draft', 'paused', approved)).toEqual({ refused: 'Only an active listing can be paused' });
    expect(ownerStatusChange('pending', 'active', fresh)).toEqual({ refused: 'This listing is waiting for review' });
  });
});

describe('status labels and visibility', () => {
  it('labels pending as Pending Review', () => {
    expect(listingStatusLabel('pending')).toBe('Pending Review');
    expect(listingStatusLabel('sold')).toBe('Sold');
  });
  it('shows active, sold, expired and cancelled listings to the public only', () => {
    expect(LISTING_STATUSES.filter((s) => isPubliclyVisible(s))).toEqual(['active', 'sold', 'expired', 'cancelled']);
  });
  it('never lets an owner change a cancelled listing', () => {
    for (const requested of ['active', 'paused', 'draft'] as const) {
      expect(ownerStatusChange('cancelled', requested, { approved: true, autoApprove: false })).toEqual({ refused: 'A cancelled listing cannot be changed' });
    }
    expect(listingStatusLabel('cancelled')).toBe('Cancelled');
  });
  it('takes bids only while active and before the end', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(acceptsBids('active', new Date('2026-01-02T00:00:00Z'), now)).toBe(true);
    expect(acceptsBids('active', new Date('2025-12-31T23:59:59Z'), now)).toBe(false);
    expect(acceptsBids('active', null, now)).toBe(true);
    expect(acceptsBids('paused', new Date('2026-01-02T00:00:00Z'), now)).toBe(false);
  });
});

describe('listing metrics', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [1_000, '1K'],
    [12_500, '12.5K'],
    [999_949, '999.9K'],
    [3_200_000, '3.2M'],
  ])('formats %i visits as %s', (visits, text) => {
    expect(formatTraffic(visits)).toBe(text);
  });

  it.each([
    [0, '0 months'],
    [1, '1 month'],
    [5, '5 months'],
    [12, '1 year'],
    [27, '2 years 3 months'],
    [13, '1 year 1 month'],
  ])('formats %i months as %s', (months, text) => {
    expect(formatBusinessAge(months)).toBe(text);
  });

  it('computes monthly profit exactly', () => {
    expect(monthlyProfit(12_000, 4_500)).toBe(7_500);
    expect(monthlyProfit(100, 250)).toBe(-150);
  });

  it('says days, then hours, then minutes remaining, and nothing once ended', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    expect(timeRemainingLabel('2026-03-08T12:00:00Z', now)).toBe('7 days remaining');
    expect(timeRemainingLabel('2026-03-02T13:00:00Z', now)).toBe('2 days remaining');
    expect(timeRemainingLabel('2026-03-02T12:00:00Z', now)).toBe('1 day remaining');
    expect(timeRemainingLabel('2026-03-02T11:59:00Z', now)).toBe('24 hours remaining');
    expect(timeRemainingLabel('2026-03-01T13:00:00Z', now)).toBe('1 hour remaining');
    expect(timeRemainingLabel('2026-03-01T12:59:00Z', now)).toBe('59 minutes remaining');
    expect(timeRemainingLabel('2026-03-01T12:00:01Z', now)).toBe('1 minute remaining');
    expect(timeRemainingLabel('2026-03-01T12:00:00Z', now)).toBeNull();
    expect(timeRemainingLabel(null, now)).toBeNull();
  });
});
