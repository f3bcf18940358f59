import type { ListingVerificationDto, VerifiedRevenueDto, VerifiedTrafficDto } from '@market/contracts';
import { backedClaims, chargesDescribedAs, CLAIM_BACKED_TITLE, CLAIM_FILTER_TITLE } from './figure-badges';

const figures = (revenueInflated: boolean, trafficInflated: boolean): ListingVerificationDto => ({
  revenue: { inflated: revenueInflated } as VerifiedRevenueDto,
  traffic: { inflated: trafficInflated } as VerifiedTrafficDto,
});

describe('the claim badges (D24, ADR 0084)', () => {
  it('follow the listing’s flags', () => {
    expect(backedClaims({ revenue_verified: true, traffic_verified: false })).toEqual({ revenue: true, traffic: false });
    expect(backedClaims({ revenue_verified: true, traffic_verified: true, verification: figures(false, false) })).toEqual({ revenue: true, traffic: true });
  });
  it('never sit beside the flag of the same claim', () => {
    expect(backedClaims({ revenue_verified: true, traffic_verified: true, verification: figures(true, false) })).toEqual({ revenue: false, traffic: true });
    expect(backedClaims({ revenue_verified: true, traffic_verified: true, verification: figures(false, true) })).toEqual({ revenue: true, traffic: false });
  });
  it('say the claim is backed by the verified figure', () => {
    expect(CLAIM_BACKED_TITLE.revenue).toMatch(/revenue claim is backed by current Stripe figures/);
    expect(CLAIM_BACKED_TITLE.traffic).toMatch(/traffic claim is backed by current Google Analytics figures/);
    expect(CLAIM_FILTER_TITLE.revenue).toMatch(/revenue claim is backed/);
    expect(CLAIM_FILTER_TITLE.traffic).toMatch(/traffic claim is backed/);
  });
});

describe('the Stripe source’s name', () => {
  it('describes the charges, never names an account', () => {
    expect(chargesDescribedAs('TEASHOP')).toBe('Charges described as “TEASHOP”');
  });
});
