import type { ListingDto, LiveMessage } from '@market/contracts';
import { createStore, type AppDispatch, type AppStore } from '../../app/store';
import { listingsApi } from '../../api/listings.api';
import { api } from '../../lib/api';
import { applyLiveMessage } from './use-live-listing';

const ID = '0b6f6f4e-3c1a-4c55-9a55-7f1b6f8f2c11';

const listing = {
  id: ID,
  seller_id: 'seller',
  title: 'Heron watching blog',
  listing_type: 'auction',
  status: 'active',
  starting_price: 2000,
  current_bid: 2000,
  buy_now_price: null,
  has_reserve: true,
  reserve_met: false,
  bid_count: 1,
  expires_at: '2026-11-25T12:00:00Z',
} as ListingDto;

let store: AppStore;
let actions: unknown[];
let seen: Array<ListingDto | undefined>;
let dispatch: AppDispatch;

beforeEach(async () => {
  store = createStore();
  await store.dispatch(listingsApi.util.upsertQueryData('listing', ID, listing));
  actions = [];
  seen = [];
  // Every state the cached listing goes through, and every action the page dispatches.
  store.subscribe(() => seen.push(listingsApi.endpoints.listing.select(ID)(store.getState()).data));
  dispatch = ((action: Parameters<AppDispatch>[0]) => {
    actions.push(action);
    return store.dispatch(action);
  }) as AppDispatch;
});
afterEach(() => store.dispatch(api.util.resetApiState()));

const invalidated = () =>
  actions.filter((action): action is { type: string; payload: unknown } => (action as { type?: string }).type === api.util.invalidateTags.type).map((action) => action.payload);

describe('applyLiveMessage', () => {
  it('shows the new bid at once and reloads the listing and its bid history (SPEC §2)', () => {
    const message: LiveMessage = {
      type: 'new_bid',
      data: {
        listing_id: ID,
        bid: { id: 'b2', bidder_name: 'ann_buyer', amount: 2050, created_at: '2026-11-22T12:00:00Z' },
        current_bid: 2050,
        bid_count: 2,
        reserve_met: true,
        expires_at: '2026-11-25T12:00:00Z',
      },
    };
    expect(applyLiveMessage(dispatch, ID, message)).toEqual({ extendedUntil: null });
    expect(seen).toContainEqual(expect.objectContaining({ current_bid: 2050, bid_count: 2, reserve_met: true }));
    expect(invalidated()).toEqual([
      [
        { type: 'Listing', id: ID },
        { type: 'Bids', id: ID },
      ],
    ]);
  });

  it('moves the end of an extended auction and returns it for the notice (D9)', () => {
    const message: LiveMessage = { type: 'auction_extended', data: { listing_id: ID, expires_at: '2026-11-25T12:10:00Z' } };
    expect(applyLiveMessage(dispatch, ID, message)).toEqual({ extendedUntil: '2026-11-25T12:10:00Z' });
    expect(seen).toContainEqual(expect.objectContaining({ expires_at: '2026-11-25T12:10:00Z' }));
    expect(invalidated()).toEqual([[{ type: 'Listing', id: ID }]]);
  });

  it('reloads the listing on listing_updated, and does nothing for another listing', () => {
    applyLiveMessage(dispatch, ID, { type: 'listing_updated', data: { listing_id: ID, status: 'paused', featured: null, expires_at: null, buy_now_price: null } });
    expect(invalidated()).toEqual([[{ type: 'Listing', id: ID }]]);
    actions = [];
    applyLiveMessage(dispatch, ID, { type: 'listing_sold', data: { listing_id: 'other', amount: 1, sold_at: '2026-11-25T12:00:00Z' } });
    expect(actions).toEqual([]);
  });
});
