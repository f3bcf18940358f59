import type { ListingCardDto } from '@market/contracts';
import { renderStatic, visibleText } from '../../testing/static-render';
import { ListingCard } from './ListingCard';

jest.mock('./listing-card.css', () => ({}));

const card = (over: Partial<ListingCardDto> = {}): ListingCardDto => ({
  id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
  title: 'Tea shop',
  category: 'E-commerce',
  listing_type: 'fixed',
  status: 'active',
  featured: false,
  monthly_revenue: 4500,
  monthly_traffic: 45000,
  starting_price: 80000,
  current_bid: null,
  buy_now_price: null,
  has_reserve: false,
  reserve_met: false,
  expires_at: null,
  created_at: '2026-11-01T00:00:00.000Z',
  bid_count: 0,
  ownership_verified: false,
  revenue_verified: false,
  traffic_verified: false,
  excerpt: 'Loose-leaf tea',
  screenshot: null,
  ...over,
});

describe('ListingCard: verified-figures badges (D24)', () => {
  it('shows a badge for each current verified figure', () => {
    const text = visibleText(renderStatic(<ListingCard listing={card({ revenue_verified: true, traffic_verified: true })} />));
    expect(text).toContain('Revenue verified');
    expect(text).toContain('Traffic verified');
  });

  it('shows each badge alone, and none without verified figures', () => {
    expect(visibleText(renderStatic(<ListingCard listing={card({ traffic_verified: true })} />))).not.toContain('Revenue verified');
    const none = visibleText(renderStatic(<ListingCard listing={card()} />));
    expect(none).not.toContain('Revenue verified');
    expect(none).not.toContain('Traffic verified');
  });
});
