import { randomUUID } from 'node:crypto';
import { UpdateListingSchema } from '@market/contracts';
import { buildListing } from '../testing/listing.factory';
import type { ListingRecord } from './listings.repository';
import { applyEdit, editPricingIssues } from './listing-edit';

const stored = (overrides: Partial<ListingRecord> = {}): ListingRecord => ({
  ...buildListing({ reserve_price: 8000, buy_now_price: 20000, monthly_expenses: 300, key_metrics: '40% returning readers' }),
  id: randomUUID(),
  seller_id: randomUUID(),
  status: 'active',
  featured: false,
  reserve_price: 8000,
  buy_now_price: 20000,
  key_metrics: '40% returning readers',
  growth_opportunities: 'A newsletter',
  included_assets: null,
  reason_for_selling: null,
  monetization_methods: ['AdSense', 'Affiliate Marketing'],
  listing_type: 'auction',
  auction_type: 'manual',
  duration_days: 14,
  current_bid: null,
  bid_count: 0,
  price: 5000,
  approved_at: null,
  expires_at: null,
  screenshots: [],
  cancel_reason: null,
  ownership_verified: false,
  ownership_verified_at: null,
  ownership_method: null,
  revenue_verified: false,
  traffic_verified: false,
  created_at: new Date('2026-11-01T00:00:00Z'),
  updated_at: new Date('2026-11-01T00:00:00Z'),
  ...overrides,
});

/** The edit form's required fields (SPEC §5), as multipart sends them, plus whatever a test adds. */
const edit = (current: ListingRecord, extra: Record<string, string> = {}) =>
  UpdateListingSchema.parse({
    title: current.title,
    description: current.description,
    category: current.category,
    website_url: current.website_url,
    monthly_revenue: String(current.monthly_revenue),
    annual_revenue: String(current.annual_revenue),
    monthly_traffic: String(current.monthly_traffic),
    profit_margin: String(current.profit_margin),
    business_age_months: String(current.business_age_months),
    starting_price: String(current.starting_price),
    ...extra,
  });

describe('applyEdit (ADR 0036)', () => {
  it('keeps every optional field the edit left out as stored, monthly_expenses included', () => {
    const current = stored();
    expect(applyEdit(current, edit(current, { title: 'A new title for the site' }))).toMatchObject({
      title: 'A new title for the site',
      monthly_expenses: 300,
      monetization_methods: ['AdSense', 'Affiliate Marketing'],
      listing_type: 'auction',
      auction_type: 'manual',
      reserve_price: 8000,
      buy_now_price: 20000,
      duration_days: 14,
      key_metrics: '40% returning readers',
      growth_opportunities: 'A newsletter',
    });
  });

  it('sets what it was sent (0 is a value) and clears what it was sent empty', () => {
    const current = stored();
    const listing = applyEdit(current, edit(current, { monthly_expenses: '0', reserve_price: '', key_metrics: '', monetization_methods: '' }));
    expect(listing).toMatchObject({ monthly_expenses: 0, monetization_methods: [], buy_now_price: 20000 });
    expect(listing.reserve_price).toBeUndefined();
    expect(listing.key_metrics).toBeUndefined();
  });

  it('checks the pricing rules on the listing the edit makes, stored prices included', () => {
    const current = stored();
    expect(editPricingIssues(applyEdit(current, edit(current, { listing_type: 'fixed' })))).toEqual([
      { loc: ['body', 'reserve_price'], msg: 'Only auctions have a reserve price', type: 'custom' },
      { loc: ['body', 'buy_now_price'], msg: 'Only auctions have a buy now price', type: 'custom' },
    ]);
    expect(editPricingIssues(applyEdit(current, edit(current, { listing_type: 'fixed', reserve_price: '', buy_now_price: '' })))).toEqual([]);
    expect(editPricingIssues(applyEdit(current, edit(current, { starting_price: '9000' })))).toEqual([
      { loc: ['body', 'reserve_price'], msg: 'Reserve price cannot be below the starting price', type: 'custom' },
    ]);
  });
});
