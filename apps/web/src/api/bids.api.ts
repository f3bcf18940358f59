import type { BidHistoryResponse, PlaceBid, PlaceBidResponse } from '@market/contracts';
import { api } from '../lib/api';

/** POST /api/bids and a listing's bid history (GET /api/listings/{id}/bids). */
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
        'Listings',
      ],
    }),
  }),
});

export const { useBidHistoryQuery, usePlaceBidMutation } = bidsApi;
