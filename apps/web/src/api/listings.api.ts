import type {
  BrowseListingsResponse,
  ListingDto,
  ListingsResponse,
  ListingStatusRequest,
  WatchlistResponse,
} from '@market/contracts';
import { api } from '../lib/api';

/** Query string of GET /api/listings: the browse filters of SPEC §2 plus page, limit and featured. */
export type BrowseParams = Partial<Record<
  | 'search' | 'category' | 'min_price' | 'max_price' | 'min_revenue' | 'max_revenue' | 'listing_type' | 'sort_by' | 'sort_order' | 'page' | 'limit'
  | 'featured' | 'verified_revenue' | 'verified_traffic',
  string
>>;

const queryString = (params: BrowseParams) =>
  new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1]))).toString();

/** /api/listings, /api/user/listings and /api/user/watchlist. Create and edit are multipart (see lib/upload.ts). */
export const listingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    browseListings: build.query<BrowseListingsResponse, BrowseParams>({
      query: (params) => `/listings?${queryString(params)}`,
      providesTags: ['Listings'],
    }),
    listing: build.query<ListingDto, string>({
      query: (id) => `/listings/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Listing', id }],
    }),
    myListings: build.query<ListingsResponse, void>({ query: () => '/user/listings', providesTags: ['MyListings'] }),
    setListingStatus: build.mutation<ListingDto, { id: string } & ListingStatusRequest>({
      query: ({ id, status }) => ({ url: `/listings/${id}`, method: 'PATCH', body: { status } }),
      invalidatesTags: (_result, _error, { id }) => ['MyListings', 'Listings', { type: 'Listing', id }],
    }),
    deleteListing: build.mutation<{ message: string }, string>({
      query: (id) => ({ url: `/listings/${id}`, method: 'DELETE' }),
      invalidatesTags: ['MyListings', 'Listings', 'Watchlist'],
    }),
    watchlist: build.query<WatchlistResponse, void>({ query: () => '/user/watchlist', providesTags: ['Watchlist'] }),
    addToWatchlist: build.mutation<{ message: string }, string>({
      query: (listingId) => ({ url: '/user/watchlist', method: 'POST', body: { listing_id: listingId } }),
      invalidatesTags: ['Watchlist'],
    }),
    removeFromWatchlist: build.mutation<{ message: string }, string>({
      query: (listingId) => ({ url: `/user/watchlist/${listingId}`, method: 'DELETE' }),
      invalidatesTags: ['Watchlist'],
    }),
    // Shown at once in the watchlist's answer, and put back if the change fails.
    setWatchReminders: build.mutation<{ reminders: boolean }, boolean>({
      query: (reminders) => ({ url: '/user/watchlist/reminders', method: 'PUT', body: { reminders } }),
      async onQueryStarted(reminders, { dispatch, queryFulfilled }) {
        const shown = dispatch(
          listingsApi.util.updateQueryData('watchlist', undefined, (draft) => {
            draft.reminders = reminders;
          }),
        );
        await queryFulfilled.catch(() => shown.undo());
      },
    }),
  }),
});

export const {
  useBrowseListingsQuery,
  useListingQuery,
  useMyListingsQuery,
  useSetListingStatusMutation,
  useDeleteListingMutation,
  useWatchlistQuery,
  useAddToWatchlistMutation,
  useRemoveFromWatchlistMutation,
  useSetWatchRemindersMutation,
} = listingsApi;
