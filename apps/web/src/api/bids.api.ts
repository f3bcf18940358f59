import type { BidAction, BidActionResponse, BidHistoryResponse, PlaceBid, PlaceBidResponse, UserBidsResponse } from '@market/contracts';
import { api } from '../lib/api';

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
      query: (body) => ({ url: '/bids', method: 'POST', body }),
      // Also on failure: a refused bid usually means someone else bid first, so the minimum shown must catch up.
      invalidatesTags: (_result, _error, { listing_id }) => [
        { type: 'Listing', id: listing_id },
        { type: 'Bids', id: listing_id },
        MY_BIDS,
        'Listings',
      ],
    }),
    userBids: build.query<UserBidsResponse, void>({
      query: () => '/user/bids',
      providesTags: [MY_BIDS],
    }),
    bidAction: build.mutation<BidActionResponse, BidActionArgs>({
      query: ({ id, action }) => ({ url: `/bids/${encodeURIComponent(id)}/action`, method: 'POST', body: { action } }),
      // Also on failure: a refusal ("already sold") means the rows shown are stale. Accepting sells the listing.
      invalidatesTags: (_result, _error, { listing_id }) => [
        MY_BIDS,
        { type: 'Listing', id: listing_id },
        { type: 'Bids', id: listing_id },
        'Listings',
        'MyListings',
      ],
    }),
  }),
});

export const { useBidHistoryQuery, usePlaceBidMutation, useUserBidsQuery, useBidActionMutation } = bidsApi;
