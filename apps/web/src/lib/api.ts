import type { Dispatch } from '@reduxjs/toolkit';
import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { forgetRefusedToken, readToken } from './storage-keys';
import { sessionEnded } from './session-events';
import { settleIdempotencyKey } from './idempotency-key';

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '/api',
  prepareHeaders: (headers) => {
    const token = readToken();
    // A request may name its own token (logging out the admin session kept aside during an impersonation).
    if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  },
});

/** Any 401 to a request that carried our token means the session ended: forget it everywhere at once. */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, queryApi, extra) => {
  const sentToken = readToken();
  const result = await rawBaseQuery(args, queryApi, extra);
  if (forgetRefusedToken(result.error?.status, sentToken)) announceSessionEnded(queryApi.dispatch);
  const key = typeof args === 'string' ? undefined : (args.headers as Record<string, string> | undefined)?.['Idempotency-Key'];
  if (key) settleIdempotencyKey(key, result.error ? result.error.status : 200);
  return result;
};

/** Tells the app the session ended (the token is already forgotten); also used after refused multipart uploads. */
export function announceSessionEnded(dispatch: Dispatch): void {
  dispatch(sessionEnded());
  // Results fetched for the ended session must not show to whoever logs in next.
  setTimeout(() => dispatch(api.util.resetApiState()), 0);
}

/** The one RTK Query API; each feature injects its endpoints from its own *.api.ts file. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Me', 'AdminUsers', 'AdminStats', 'AdminEmails', 'AuditLog', 'Settings', 'Listings', 'Listing', 'MyListings', 'Watchlist', 'AdminListings', 'Bids', 'Standing', 'Sessions', 'PaymentMethod'],
  endpoints: () => ({}),
});
