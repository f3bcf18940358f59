import type { AdminListingDto, ListingVerificationDto } from '@market/contracts';
import { renderStatic, visibleText } from '../../testing/static-render';
import { AdminListingRow } from './AdminListingRow';

jest.mock('../../components/listing/listing-card.css', () => ({}));

const figures = (revenueInflated: boolean, trafficInflated: boolean): ListingVerificationDto => ({
  revenue: {
    state: 'current',
    test_mode: false,
    verified_at: '2026-12-07T03:00:00.000Z',
    inflated: revenueInflated,
    monthly_average_cents: 100_000,
    claimed_cents: 500_000,
    months: [],
    other_currency_charges: 0,
    account_label: 'TEASHOP',
  },
  traffic: {
    state: 'current',
    test_mode: false,
    verified_at: '2026-12-07T03:00:00.000Z',
    inflated: trafficInflated,
    monthly_average_sessions: 10_000,
    monthly_average_users: 8_000,
    claimed: 45_000,
    months: [],
    property_id: '123',
  },
});

const listing = (verification?: ListingVerificationDto) =>
  ({
    id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
    title: 'Tea shop',
    category: 'E-commerce',
    status: 'pending',
    featured: false,
    starting_price: 80000,
    current_bid: null,
    created_at: '2026-11-01T00:00:00.000Z',
    seller_username: 'sam',
    ownership_verified: false,
    revenue_verified: verification !== undefined,
    traffic_verified: verification !== undefined,
    verification,
  }) as AdminListingDto;

const render = (row: AdminListingDto) =>
  visibleText(
    renderStatic(
      <table>
        <tbody>
          <AdminListingRow listing={row} onStatus={() => undefined} onFeature={() => undefined} onDelete={() => undefined} onCancel={() => undefined} />
        </tbody>
      </table>,
    ),
  );

describe('AdminListingRow: verified figures in the review (D24)', () => {
  it('flags a claim above the verified revenue or traffic, with both figures and how the charges are described', () => {
    const text = render(listing(figures(true, true)));
    expect(text).toContain('Claim above verified revenue Claims $5,000/mo; Stripe $1,000/mo');
    expect(text).toContain('Claim above verified traffic Claims 45,000 visits/mo; GA4 10,000 sessions/mo');
    expect(text).toContain('Charges described as “TEASHOP”');
    expect(text).not.toContain('Stripe account');
  });

  it('never shows a claim’s badge beside its flag, even while the listing’s flag lags (ADR 0084)', () => {
    const text = render(listing(figures(true, false)));
    expect(text).toContain('Claim above verified revenue');
    expect(text).not.toContain('Revenue verified');
    expect(text).toContain('Traffic verified');
  });

  it('shows the badges without a flag when the claims hold', () => {
    const text = render(listing(figures(false, false)));
    expect(text).toContain('Revenue verified');
    expect(text).not.toContain('Claim above');
  });

  it('adds nothing for a listing without verified figures', () => {
    const text = render(listing());
    expect(text).not.toContain('verified');
    expect(text).not.toContain('Claim above');
  });
});
