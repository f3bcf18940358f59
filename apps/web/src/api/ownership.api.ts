import type { OwnershipProofDto } from '@market/contracts';
import { api } from '../lib/api';

/** /api/listings/{id}/ownership: the seller's proof of a listing's domain (ADR 0040). */
export const ownershipApi = api.injectEndpoints({
  endpoints: (build) => ({
    listingOwnership: build.query<OwnershipProofDto, string>({
      query: (id) => `/listings/${encodeURIComponent(id)}/ownership`,
      providesTags: (_result, _error, id) => [{ type: 'Listing', id: `ownership:${id}` }],
    }),
    checkListingOwnership: build.mutation<OwnershipProofDto, string>({
      query: (id) => ({ url: `/listings/${encodeURIComponent(id)}/ownership/check`, method: 'POST', body: {} }),
      // A verified listing shows its badge everywhere: on its page, its cards and the seller's own list.
      invalidatesTags: (result, _error, id) =>
        result?.verified
          ? [{ type: 'Listing', id }, { type: 'Listing', id: `ownership:${id}` }, 'Listings', 'MyListings', 'AdminListings']
          : [{ type: 'Listing', id: `ownership:${id}` }],
    }),
  }),
});

export const { useListingOwnershipQuery, useCheckListingOwnershipMutation } = ownershipApi;
