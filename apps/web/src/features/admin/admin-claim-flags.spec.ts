import type { VerifiedRevenueDto, VerifiedTrafficDto } from '@market/contracts';
import { chargeDescriptorOf, claimFlags } from './admin-claim-flags';

const revenue = (over: Partial<VerifiedRevenueDto> = {}): VerifiedRevenueDto => ({
  state: 'current',
  test_mode: false,
  verified_at: '2026-12-07T03:00:00.000Z',
  inflated: false,
  monthly_average_cents: 300_050,
  claimed_cents: 500_000,
  months: [],
  other_currency_charges: 0,
  account_label: null,
  ...over,
});
const traffic = (over: Partial<VerifiedTrafficDto> = {}): VerifiedTrafficDto => ({
  state: 'stale',
  test_mode: false,
  verified_at: '2026-12-07T03:00:00.000Z',
  inflated: false,
  monthly_average_sessions: 12_000,
  monthly_average_users: 9_000,
  claimed: 45_000,
  months: [],
  property_id: '123',
  ...over,
});

describe('claimFlags: the admin review’s flags (D24)', () => {
  it('flags each inflated claim with both figures', () => {
    expect(claimFlags({ revenue: revenue({ inflated: true }), traffic: traffic({ inflated: true }) })).toEqual([
      { kind: 'revenue', label: 'Claim above verified revenue', detail: 'Claims $5,000/mo; Stripe $3,000.50/mo' },
      { kind: 'traffic', label: 'Claim above verified traffic', detail: 'Claims 45,000 visits/mo; GA4 12,000 sessions/mo' },
    ]);
  });

  it('flags nothing within the tolerance or without figures', () => {
    expect(claimFlags({ revenue: revenue(), traffic: traffic() })).toEqual([]);
    expect(claimFlags({ revenue: null, traffic: null })).toEqual([]);
    expect(claimFlags(undefined)).toEqual([]);
  });

  it('gives the statement descriptor of the charges the revenue is read from, when there is one', () => {
    expect(chargeDescriptorOf({ revenue: revenue({ account_label: 'TEASHOP' }), traffic: null })).toBe('TEASHOP');
    expect(chargeDescriptorOf({ revenue: revenue(), traffic: null })).toBeNull();
    expect(chargeDescriptorOf(undefined)).toBeNull();
  });
});
