import type { BidAction, BidActionResponse, BidHistoryResponse, MyStanding, PlaceBid, PlaceBidResponse, UserBidsResponse } from '@market/contracts';
import { api } from '../lib/api';
import { livePatch, rememberLive, sameListing } from './live-state';
import { listingsApi } from './listings.api';
import { retryableKeyHeaders } from '../lib/idempotency-key';

/** The tag of the signed-in user's own bid list; listing ids are UUIDs, so it never names a listing's history. */
const MY_BIDS = { type: 'Bids', id: 'MINE' } as const;

/** The seller's decision on one bid or offer; listing_id is only used to reload that listing afterwards. */
export interface BidActionArgs extends BidAction {
  id: string;
  listing_id: string;
}

/** POST /api/bids (bids and offers), a listing's bid history, the user's bids and the seller's accept/reject. */
export const bidsApi = api.injectEndpoints({
  endpoints: (build) => ({
    bidHistory: build.query<BidHistoryResponse, string>({
      query: (listingId) => `/listings/${encodeURIComponent(listingId)}/bids`,
      providesTags: (_result, _error, listingId) => [{ type: 'Bids', id: listingId }],
    }),
    placeBid: build.mutation<PlaceBidResponse, PlaceBid>({
      query: (body) => ({ url: '/bids', method: 'POST', body, headers: retryableKeyHeaders('/bids', body) }),
      // Also on failure: a refused bid usually means someone else bid first, so the minimum shown must catch up.
      invalidatesTags: (_result, _error, { listing_id }) => [
        { type: 'Listing', id: listing_id },
        { type: 'Bids', id: listing_id },
        MY_BIDS,
        { type: 'Standing', id: listing_id },
        'Listings',
      ],
      // The answer is newer than the listing the invalidation reloads (the listings service learns of the bid later):
      // show it at once and remember it, so that reload cannot take the price, count or end back (see lib/live-state.ts).
      async onQueryStarted({ listing_id }, { dispatch, getState, queryFulfilled }) {
        const answer = await queryFulfilled.then(
          ({ data }) => data,
          () => null,
        );
        const state = getState() as Parameters<typeof listingsApi.util.selectCachedArgsForQuery>[0];
        // The page caches the listing under the id as typed in its URL, which may differ in case from listing_id.
        const cached = listingsApi.util.selectCachedArgsForQuery(state, 'listing').filter((id) => sameListing(id, listing_id));
        // Offers are private and move nothing (D5).
        if (answer && answer.kind === 'bid' && answer.current_bid !== null) {
          const version = typeof answer.price_version === 'number' ? { price_version: answer.price_version } : {};
          rememberLive(listing_id, { current_bid: answer.current_bid, bid_count: answer.bid_count, expires_at: answer.expires_at, ...version });
          for (const id of cached) {
            dispatch(listingsApi.util.updateQueryData('listing', id, (draft) => void Object.assign(draft, livePatch(id, draft))));
          }
        }
        // invalidatesTags names listing_id only; a listing cached under another case of it must reload as well.
        const otherCase = cached.filter((id) => id !== listing_id);
        if (otherCase.length > 0) dispatch(api.util.invalidateTags(otherCase.map((id) => ({ type: 'Listing' as const, id }))));
      },
    }),
    userBids: build.query<UserBidsResponse, void>({
      query: () => '/user/bids',
      providesTags: [MY_BIDS],
    }),
    /** The viewer's own standing on one listing (ADR 0060); only their own bids and the seller's decision change it. */
    myStanding: build.query<MyStanding, string>({
      query: (listingId) => `/listings/${encodeURIComponent(listingId)}/my-standing`,
      providesTags: (_result, _error, listingId) => [{ type: 'Standing', id: listingId }],
    }),
    bidAction: build.mutation<BidActionResponse, BidActionArgs>({
      query: ({ id, action }) => ({ url: `/bids/${encodeURIComponent(id)}/action`, method: 'POST', body: { action } }),
      // Also on failure: a refusal ("already sold") means the rows shown are stale. Accepting sells the listing.
      invalidatesTags: (_result, _error, { listing_id }) => [
        MY_BIDS,
        { type: 'Listing', id: listing_id },
        { type: 'Bids', id: listing_id },
        { type: 'Standing', id: listing_id },
        'Listings',
        'MyListings',
      ],
    }),
  }),
});

export const { useBidHistoryQuery, usePlaceBidMutation, useUserBidsQuery, useMyStandingQuery, useBidActionMutation } = bidsApi;
