import type { ListingVerificationDto, VerifiedRevenueDto, VerifiedTrafficDto } from '@market/contracts';
import { renderStatic, visibleText } from '../../testing/static-render';
import { VerifiedFigures } from './VerifiedFigures';

jest.mock('./verified-figures.css', () => ({}));

const MONTHS = ['2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11'];

const revenue = (over: Partial<VerifiedRevenueDto> = {}): VerifiedRevenueDto => ({
  state: 'current',
  test_mode: false,
  verified_at: '2026-12-07T03:00:00.000Z',
  inflated: false,
  monthly_average_cents: 412_350,
  claimed_cents: 450_000,
  months: MONTHS.map((month, i) => ({ month, cents: 400_000 + i * 2_250 })),
  other_currency_charges: 0,
  account_label: 'TEASHOP',
  ...over,
});

const traffic = (over: Partial<VerifiedTrafficDto> = {}): VerifiedTrafficDto => ({
  state: 'current',
  test_mode: false,
  verified_at: '2026-12-07T03:00:00.000Z',
  inflated: false,
  monthly_average_sessions: 41_000,
  monthly_average_users: 30_500,
  claimed: 45_000,
  months: MONTHS.map((month) => ({ month, users: 30_500, sessions: 41_000 })),
  property_id: '123456789',
  ...over,
});

const render = (verification: ListingVerificationDto | undefined) => renderStatic(<VerifiedFigures verification={verification} />);

describe('VerifiedFigures (D24)', () => {
  it('shows nothing for a listing with no source connected', () => {
    expect(render(undefined)).toBe('');
    expect(render({ revenue: null, traffic: null })).toBe('');
  });

  it('shows current revenue with its badge, the verified average beside the claim, and the 12 months', () => {
    const html = render({ revenue: revenue(), traffic: null });
    const text = visibleText(html);
    expect(text).toContain('Revenue verified by Stripe');
    expect(text).toContain('Verified on December 7, 2026 · Charges described as “TEASHOP”');
    expect(text).toContain('Verified monthly average $4,123.50/mo');
    expect(text).toContain('Seller’s claim $4,500/mo');
    expect(html).not.toContain('claim-warning');
    // The chart is an image described month by month, and the same figures are a table.
    expect(html).toMatch(/<svg[^>]*role="img"/);
    expect(html).toContain('December 2025: Net revenue $4,000; January 2026: Net revenue $4,022.50;');
    expect(html.match(/<rect /g)).toHaveLength(12);
    expect(html).toContain('<th scope="row">November 2026</th><td>$4,247.50</td>');
    expect(text).not.toContain('Traffic');
  });

  it('warns buyers of an inflated claim with both figures', () => {
    const text = visibleText(render({ revenue: revenue({ inflated: true, claimed_cents: 900_000 }), traffic: traffic({ inflated: true, claimed: 90_000 }) }));
    expect(text).toContain('Seller claims $9,000/mo; verified $4,123.50/mo');
    expect(text).toContain('Seller claims 90,000 visits/mo; verified 41,000 sessions/mo');
  });

  it('gives a stale figure no badge, only the day it was last verified', () => {
    const html = render({ revenue: revenue({ state: 'stale' }), traffic: traffic({ state: 'stale' }) });
    expect(html).not.toContain('badge-verified');
    expect(visibleText(html)).not.toMatch(/verified by (Stripe|Google Analytics)/);
    expect(visibleText(html)).toContain('Last verified on December 7, 2026 · Charges described as');
    expect(visibleText(html)).not.toContain('no longer connected');
  });

  it('says a revoked figure is no longer connected', () => {
    const text = visibleText(render({ revenue: null, traffic: traffic({ state: 'revoked' }) }));
    expect(text).toContain('Last verified on December 7, 2026 (no longer connected) · GA4 property 123456789');
    expect(text).not.toContain('Traffic verified by Google Analytics');
  });

  it('shows current traffic: sessions and users beside the claimed visits, both in the chart', () => {
    const html = render({ revenue: null, traffic: traffic() });
    const text = visibleText(html);
    expect(text).toContain('Traffic verified by Google Analytics');
    expect(text).toContain('Verified sessions 41,000/mo Verified users 30,500/mo Seller’s claim 45,000 visits/mo');
    expect(html.match(/<rect /g)).toHaveLength(24);
    expect(html).toContain('December 2025: Sessions 41,000, Users 30,500;');
  });

  it('marks figures from a test stand-in as TEST MODE', () => {
    expect(visibleText(render({ revenue: revenue({ test_mode: true }), traffic: null }))).toContain('TEST MODE');
    expect(visibleText(render({ revenue: revenue(), traffic: null }))).not.toContain('TEST MODE');
  });

  it('says when no month had revenue, and counts charges in other currencies apart', () => {
    const text = visibleText(
      render({ revenue: revenue({ monthly_average_cents: null, months: MONTHS.map((month) => ({ month, cents: 0 })), other_currency_charges: 2 }), traffic: null }),
    );
    expect(text).toContain('No revenue in these 12 months');
    expect(text).toContain('2 charges in other currencies are not counted.');
  });
});
