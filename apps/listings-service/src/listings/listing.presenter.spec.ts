import { randomUUID } from 'node:crypto';
import { listingCard, ListingCardSchema, type Actor } from '@market/contracts';
import { LISTING_EXCERPT_CHARS, LISTING_EXCERPT_READ } from '@market/domain';
import { buildListing } from '../testing/listing.factory';
import type { ListingRecord } from './listings.repository';
import { presentCard, presentListing } from './listing.presenter';

const sellerId = randomUUID();
const record = (overrides: Partial<ListingRecord> = {}): ListingRecord => ({
  ...buildListing({ reserve_price: 8000 }),
  id: randomUUID(),
  seller_id: sellerId,
  status: 'active',
  featured: false,
  reserve_price: 8000,
  buy_now_price: null,
  key_metrics: null,
  growth_opportunities: null,
  included_assets: null,
  reason_for_selling: null,
  current_bid: null,
  bid_count: 0,
  ownership_verified: false,
  ownership_verified_at: null,
  ownership_method: null,
  revenue_verified: false,
  traffic_verified: false,
  price: 5000,
  approved_at: new Date('2026-11-01T00:00:00Z'),
  expires_at: new Date('2026-11-08T00:00:00Z'),
  screenshots: ['0f1e2d3c-aaaa-4bbb-8ccc-123456789abc.png'],
  cancel_reason: null,
  created_at: new Date('2026-11-01T00:00:00Z'),
  updated_at: new Date('2026-11-01T00:00:00Z'),
  ...overrides,
});

const user = (overrides: Partial<Actor> = {}): Actor => ({ user_id: randomUUID(), role: 'regular', ...overrides });

describe('presentListing', () => {
  it('shows the reserve amount to the seller and to real admins only (D7)', () => {
    expect(presentListing(record(), user({ user_id: sellerId })).reserve_price).toBe(8000);
    expect(presentListing(record(), user({ role: 'admin' })).reserve_price).toBe(8000);
    for (const viewer of [null, user(), user({ role: 'admin', impersonator_id: randomUUID() })]) {
      const dto = presentListing(record(), viewer);
      expect(dto).not.toHaveProperty('reserve_price');
      expect(dto).toMatchObject({ has_reserve: true, reserve_met: false });
    }
  });

  it('reports the reserve met once the current bid reaches it, and met when there is none', () => {
    expect(presentListing(record({ current_bid: 7999 }), null).reserve_met).toBe(false);
    expect(presentListing(record({ current_bid: 8000 }), null).reserve_met).toBe(true);
    expect(presentListing(record({ reserve_price: null }), null)).toMatchObject({ has_reserve: false, reserve_met: true });
  });

  it('says whether revenue and traffic are verified (D24), each on its own', () => {
    expect(presentListing(record(), null)).toMatchObject({ revenue_verified: false, traffic_verified: false });
    expect(presentListing(record({ revenue_verified: true }), null)).toMatchObject({ revenue_verified: true, traffic_verified: false });
    expect(presentListing(record({ traffic_verified: true }), null)).toMatchObject({ revenue_verified: false, traffic_verified: true });
  });

  it('serves screenshots under /api/uploads and dates as ISO strings', () => {
    const dto = presentListing(record(), null);
    expect(dto.screenshots).toEqual(['/api/uploads/0f1e2d3c-aaaa-4bbb-8ccc-123456789abc.png']);
    expect(dto.expires_at).toBe('2026-11-08T00:00:00.000Z');
  });
});

describe('listingCard (ADR 0082)', () => {
  it('is exactly the card schema: what a card shows and a live bid changes, the description as an excerpt', () => {
    const description = `${'A long and careful description of the business. '.repeat(20)}The end.`;
    const listing = presentListing(record({ description, current_bid: 6000, bid_count: 3, screenshots: ['a.png', 'b.png'] }), null);
    const card = listingCard(listing);
    // Strict: no field of the whole listing leaks into the card beyond its schema.
    expect(ListingCardSchema.parse(card)).toEqual(card);
    expect(card).toMatchObject({ id: listing.id, title: listing.title, current_bid: 6000, bid_count: 3, screenshot: listing.screenshots[0], has_reserve: true, reserve_met: false });
    expect(card.excerpt.endsWith('…')).toBe(true);
    expect(Array.from(card.excerpt).length).toBeLessThanOrEqual(LISTING_EXCERPT_CHARS);
    expect(card).not.toHaveProperty('description');
    expect(card).not.toHaveProperty('reserve_price');
  });

  it('has no screenshot when the listing has none, and never the reserve amount even from the seller\'s view', () => {
    const card = listingCard(presentListing(record({ screenshots: [] }), user({ user_id: sellerId })));
    expect(card.screenshot).toBeNull();
    expect(ListingCardSchema.parse(card)).not.toHaveProperty('reserve_price');
  });
});

describe('presentCard (ADR 0082)', () => {
  const cases: Array<[string, Partial<ListingRecord>]> = [
    ['a short description, one screenshot, no bids', {}],
    ['a long description, several screenshots, a met reserve', { description: 'word '.repeat(400), screenshots: ['a.png', 'b.png'], current_bid: 9000, bid_count: 2, price_version: 5 }],
    ['no screenshot, no reserve, a bid', { screenshots: [], reserve_price: null, current_bid: 5500, bid_count: 1 }],
    ['verified revenue only (D24)', { revenue_verified: true }],
    ['verified traffic only (D24)', { traffic_verified: true }],
  ];
  it.each(cases)('is the card listingCard makes of the whole listing: %s', (_name, overrides) => {
    const whole = record(overrides);
    const card = presentCard(whole);
    expect(card).toEqual(listingCard(presentListing(whole, null)));
    expect(ListingCardSchema.parse(card)).toEqual(card);
    expect(card).toMatchObject({ revenue_verified: whole.revenue_verified, traffic_verified: whole.traffic_verified });
  });

  it('gives the same excerpt from the card columns, which read the description only one character past the excerpt\'s reach', () => {
    // What CARD_COLUMNS' left(description, READ + 1) leaves of long texts, whitespace-heavy ones included.
    for (const description of ['word '.repeat(400), `Start${' '.repeat(3000)}and more`, 'x'.repeat(LISTING_EXCERPT_READ + 1)]) {
      const whole = record({ description });
      const read = { ...whole, description: description.slice(0, LISTING_EXCERPT_READ + 1), screenshots: whole.screenshots.slice(0, 1) };
      expect(presentCard(read)).toEqual(listingCard(presentListing(whole, null)));
    }
  });
});
