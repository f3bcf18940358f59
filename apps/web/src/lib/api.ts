import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import { readToken } from './storage-keys';

/** The one RTK Query API; each feature injects its endpoints from its own *.api.ts file. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: fetchBaseQuery({
    baseUrl: '/api',
    prepareHeaders: (headers) => {
      const token = readToken();
      if (token) headers.set('Authorization', `Bearer ${token}`);
      return headers;
    },
  }),
  tagTypes: ['Me'],
  endpoints: () => ({}),
});
