import type { CreateSavedSearch, SavedSearchDto, SavedSearchesResponse, UpdateSavedSearch } from '@market/contracts';
import { api } from '../lib/api';

/** /api/user/saved-searches and the alert emails' /api/unsubscribe/{token} (ADR 0074). */
export const savedSearchesApi = api.injectEndpoints({
  endpoints: (build) => ({
    savedSearches: build.query<SavedSearchesResponse, void>({ query: () => '/user/saved-searches', providesTags: ['SavedSearches'] }),
    createSavedSearch: build.mutation<SavedSearchDto, CreateSavedSearch>({
      query: (body) => ({ url: '/user/saved-searches', method: 'POST', body }),
      invalidatesTags: ['SavedSearches'],
    }),
    updateSavedSearch: build.mutation<SavedSearchDto, { id: string } & UpdateSavedSearch>({
      query: ({ id, ...change }) => ({ url: `/user/saved-searches/${id}`, method: 'PATCH', body: change }),
      invalidatesTags: ['SavedSearches'],
    }),
    deleteSavedSearch: build.mutation<{ message: string }, string>({
      query: (id) => ({ url: `/user/saved-searches/${id}`, method: 'DELETE' }),
      invalidatesTags: ['SavedSearches'],
    }),
    unsubscribe: build.mutation<{ message: string }, string>({
      query: (token) => ({ url: `/unsubscribe/${encodeURIComponent(token)}`, method: 'POST' }),
      invalidatesTags: ['SavedSearches', 'Watchlist'],
    }),
  }),
});

export const { useSavedSearchesQuery, useCreateSavedSearchMutation, useUpdateSavedSearchMutation, useDeleteSavedSearchMutation, useUnsubscribeMutation } = savedSearchesApi;
