import type { ListingDto, LiveMessage, PlaceBidResponse } from '@market/contracts';
import { createStore, type AppStore } from '../../testing/test-store';
import { type AppDispatch } from '../../lib/store-hooks';
import { bidsApi } from '../../api/bids.api';
import { listingsApi } from '../../api/listings.api';
import { api } from '../../lib/api';
import { forgetLiveStates } from '../../api/live-state';
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
afterEach(() => {
  store.dispatch(api.util.resetApiState());
  forgetLiveStates();
});

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
    applyLiveMessage(dispatch, ID, statusChange('paused'));
    expect(invalidated()).toEqual([[{ type: 'Listing', id: ID }]]);
    actions = [];
    applyLiveMessage(dispatch, ID, { type: 'listing_sold', data: { listing_id: 'other', amount: 1, sold_at: '2026-11-25T12:00:00Z' } });
    expect(actions).toEqual([]);
  });
});

const newBid = (listingId = ID): LiveMessage => ({
  type: 'new_bid',
  data: {
    listing_id: listingId,
    bid: { id: 'b2', bidder_name: 'ann_buyer', amount: 2050, created_at: '2026-11-25T11:58:00Z' },
    current_bid: 2050,
    bid_count: 2,
    reserve_met: true,
    // A bid in the last minutes moved the end (soft close, D9).
    expires_at: '2026-11-25T12:10:00Z',
  },
});

const statusChange = (status: string): LiveMessage => ({
  type: 'listing_updated',
  data: { listing_id: ID, status, featured: null, expires_at: null, buy_now_price: null },
});

/** The answer of POST /api/bids (only the fields the page reads matter). */
const bidAnswer = (fields: Partial<PlaceBidResponse>): PlaceBidResponse => ({
  message: 'Bid placed successfully',
  kind: 'bid',
  bid: { id: 'b2' } as PlaceBidResponse['bid'],
  current_bid: 2050,
  bid_count: 2,
  expires_at: listing.expires_at,
  extended: false,
  leading: true,
  max_amount: null,
  ...fields,
});

/** The API over a fake fetch: GET /api/listings/{id} answers `answers.listing`, POST /api/bids `answers.bid`. */
describe('a reload that is behind the live news', () => {
  const NodeRequest = globalThis.Request;
  const answers: { listing: ListingDto; bid?: PlaceBidResponse } = { listing };
  let fetchMock: jest.SpyInstance;
  const listingReads = () =>
    fetchMock.mock.calls.map(([request]) => request as Request).filter((request) => request.method === 'GET' && !request.url.endsWith('/bids')).length;
  const shown = (id = ID) => listingsApi.endpoints.listing.select(id)(store.getState()).data;

  /** Waits until no request is under way (the reloads the invalidations started have landed). */
  const settled = async () => {
    for (let turn = 0; turn < 100; turn += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      const { queries, mutations } = store.getState().api;
      if (![...Object.values(queries), ...Object.values(mutations)].some((entry) => entry?.status === 'pending')) return;
    }
    throw new Error('requests never settled');
  };

  beforeAll(() => {
    // fetchBaseQuery builds Requests from '/api/...': give them an origin, as a page would.
    globalThis.Request = class extends NodeRequest {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' ? new URL(input, 'http://market.test') : input, init);
      }
    } as typeof Request;
  });
  afterAll(() => {
    globalThis.Request = NodeRequest;
  });
  beforeEach(() => {
    answers.listing = listing; // the listings service has not heard of any new bid yet
    answers.bid = undefined;
    fetchMock = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      const path = new URL(request.url).pathname;
      if (request.method === 'POST' && path === '/api/bids') return Response.json(answers.bid, { status: 201 });
      if (path.endsWith('/bids')) return Response.json({ bids: [] });
      return Response.json(answers.listing);
    });
  });
  afterEach(() => fetchMock.mockRestore());

  /** The page: a subscribed listing query, as ListingDetailPage holds one. */
  const watch = (id = ID) => store.dispatch(listingsApi.endpoints.listing.initiate(id));

  it('keeps the new price, bid count and end of a new_bid when the reload still returns the listing from before it', async () => {
    watch();
    applyLiveMessage(dispatch, ID, newBid());
    await settled();
    expect(listingReads()).toBe(1);
    expect(shown()).toMatchObject({ current_bid: 2050, bid_count: 2, reserve_met: true, expires_at: '2026-11-25T12:10:00Z' });
    // Not even for a moment: every state after the news shows it.
    const from = seen.findIndex((data) => data?.bid_count === 2);
    expect(from).toBeGreaterThanOrEqual(0);
    expect(seen.slice(from).every((data) => data?.current_bid === 2050 && data.expires_at === '2026-11-25T12:10:00Z')).toBe(true);
  });

  it('shows the API again once it has caught up, including news the page never got', async () => {
    watch();
    applyLiveMessage(dispatch, ID, newBid());
    await settled();
    answers.listing = { ...listing, current_bid: 2100, bid_count: 3, reserve_met: true, expires_at: '2026-11-25T12:12:00Z' };
    store.dispatch(api.util.invalidateTags([{ type: 'Listing', id: ID }]));
    await settled();
    expect(shown()).toMatchObject({ current_bid: 2100, bid_count: 3, expires_at: '2026-11-25T12:12:00Z' });
  });

  it('shows a rejected leading bid gone at once, and neither a late reload nor late bid news brings it back (ADR 0038)', async () => {
    answers.listing = { ...listing, current_bid: 2100, bid_count: 2, reserve_met: true, price_version: 2 };
    watch();
    await settled();
    applyLiveMessage(dispatch, ID, { type: 'bids_repriced', data: { listing_id: ID, current_bid: 2000, bid_count: 1, reserve_met: false, price_version: 3 } });
    await settled();
    // The reload was still from before the rejection: the page keeps the repriced state, not the larger count.
    expect(shown()).toMatchObject({ current_bid: 2000, bid_count: 1, reserve_met: false, price_version: 3 });
    applyLiveMessage(dispatch, ID, newBid()); // the rejected bid's own news, arriving late (no newer version)
    await settled();
    expect(shown()).toMatchObject({ current_bid: 2000, bid_count: 1 });
    answers.listing = { ...listing, current_bid: 2000, bid_count: 1, reserve_met: false, price_version: 3 };
    store.dispatch(api.util.invalidateTags([{ type: 'Listing', id: ID }]));
    await settled();
    expect(shown()).toMatchObject({ current_bid: 2000, bid_count: 1, price_version: 3 });
  });

  it('keeps a listing sold when the reload still says active (sold is final)', async () => {
    watch();
    applyLiveMessage(dispatch, ID, { type: 'listing_sold', data: { listing_id: ID, amount: 2050, sold_at: '2026-11-25T11:59:00Z' } });
    await settled();
    expect(listingReads()).toBe(1);
    expect(shown()?.status).toBe('sold');
    // A late listing_updated does not reopen it either.
    applyLiveMessage(dispatch, ID, statusChange('active'));
    await settled();
    expect(shown()?.status).toBe('sold');
  });

  it('keeps a paused listing paused when the reload is from before the pause', async () => {
    watch();
    applyLiveMessage(dispatch, ID, statusChange('paused'));
    await settled();
    expect(listingReads()).toBe(1);
    expect(shown()?.status).toBe('paused');
  });

  it('follows a listing whose URL id is in upper case', async () => {
    const typed = ID.toUpperCase();
    await store.dispatch(listingsApi.util.upsertQueryData('listing', typed, listing));
    watch(typed);
    applyLiveMessage(dispatch, typed, newBid(ID));
    await settled();
    expect(shown(typed)).toMatchObject({ current_bid: 2050, bid_count: 2 });
  });

  it('keeps the answer of our own bid when the reload its invalidation starts is behind it', async () => {
    watch();
    answers.bid = bidAnswer({ current_bid: 2050, bid_count: 2, expires_at: '2026-11-25T12:10:00Z', extended: true });
    await store.dispatch(bidsApi.endpoints.placeBid.initiate({ listing_id: ID, amount: 2050 }));
    await settled();
    expect(listingReads()).toBe(1);
    expect(shown()).toMatchObject({ current_bid: 2050, bid_count: 2, expires_at: '2026-11-25T12:10:00Z' });
  });

  it('reloads a listing cached under an upper-case id after our bid, and shows the bid', async () => {
    const typed = ID.toUpperCase();
    await store.dispatch(listingsApi.util.upsertQueryData('listing', typed, listing));
    watch(typed);
    answers.bid = bidAnswer({ current_bid: 2050, bid_count: 2, expires_at: listing.expires_at });
    await store.dispatch(bidsApi.endpoints.placeBid.initiate({ listing_id: ID, amount: 2050 }));
    await settled();
    expect(listingReads()).toBe(1);
    expect(shown(typed)).toMatchObject({ current_bid: 2050, bid_count: 2 });
  });

  it('moves nothing for an offer, which is private (D5)', async () => {
    watch();
    answers.bid = bidAnswer({ kind: 'offer', current_bid: null, bid_count: 1, expires_at: null });
    await store.dispatch(bidsApi.endpoints.placeBid.initiate({ listing_id: ID, amount: 1500 }));
    await settled();
    expect(shown()).toMatchObject({ current_bid: 2000, bid_count: 1 });
  });
});
