import { planActions, watchlistMessage } from './listing-actions';

const NOW = new Date('2026-11-22T12:00:00Z');
const base = {
  seller_id: 'seller',
  listing_type: 'auction' as const,
  status: 'active' as const,
  expires_at: '2026-11-25T12:00:00Z',
  current_bid: null,
  starting_price: 1000,
  buy_now_price: null,
};
const buyer = { id: 'buyer', role: 'user' };

describe('planActions', () => {
  it('offers bidding on an open auction, and buy now only below 5000 (D4)', () => {
    expect(planActions(base, buyer, NOW).actions).toEqual(['place_bid']);
    expect(planActions({ ...base, buy_now_price: 4999 }, buyer, NOW).actions).toEqual(['place_bid', 'buy_now']);
    expect(planActions({ ...base, buy_now_price: 5000 }, buyer, NOW).actions).toEqual(['place_bid', 'escrow']);
  });
  it('offers buy now for a cheap fixed price, and an offer plus escrow from 5000 up', () => {
    const fixed = { ...base, listing_type: 'fixed' as const };
    expect(planActions({ ...fixed, starting_price: 4999 }, null, NOW).actions).toEqual(['buy_now']);
    expect(planActions({ ...fixed, starting_price: 5000 }, null, NOW).actions).toEqual(['make_offer', 'escrow']);
    expect(planActions({ ...fixed, starting_price: 5000 }, null, NOW)).toMatchObject({ priceLabel: 'Asking price', price: 5000 });
  });
  it('shows the current bid once there is one', () => {
    expect(planActions({ ...base, current_bid: 1500 }, buyer, NOW)).toMatchObject({ priceLabel: 'Current bid', price: 1500 });
    expect(planActions(base, buyer, NOW)).toMatchObject({ priceLabel: 'Starting bid', price: 1000 });
    expect(planActions({ ...base, current_bid: 1500, status: 'sold' }, buyer, NOW)).toMatchObject({ priceLabel: 'Final bid', price: 1500 });
  });
  it('gives the seller an edit link instead of buyer actions', () => {
    const plan = planActions({ ...base, buy_now_price: 100 }, { id: 'seller', role: 'user' }, NOW);
    expect(plan).toMatchObject({ canEdit: true, showBuyerActions: false, actions: [] });
    expect(planActions(base, { id: 'boss', role: 'admin' }, NOW)).toMatchObject({ canEdit: true, showBuyerActions: true });
    expect(planActions(base, buyer, NOW).canEdit).toBe(false);
  });
  it('offers nothing to buy once sold or ended', () => {
    expect(planActions({ ...base, status: 'sold' }, buyer, NOW).actions).toEqual([]);
    expect(planActions({ ...base, expires_at: '2026-11-22T11:59:00Z' }, buyer, NOW).actions).toEqual([]);
  });
});

describe('watchlistMessage', () => {
  it('uses the texts of SPEC §8', () => {
    expect(watchlistMessage({ ok: true })).toEqual({ text: 'Added to watchlist successfully!', success: true });
    expect(watchlistMessage({ ok: false, status: 400 }).text).toBe('This listing is already in your watchlist.');
    expect(watchlistMessage({ ok: false, status: 500 }).text).toBe('Error adding to watchlist. Please try again.');
    expect(watchlistMessage({ ok: false, status: 'FETCH_ERROR' }).success).toBe(false);
  });
});
