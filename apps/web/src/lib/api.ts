import { createAction, type Dispatch } from '@reduxjs/toolkit';
import {
  buildCreateApi,
  coreModule,
  fetchBaseQuery,
  reactHooksModule,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { forgetRefusedToken, readToken } from './storage-keys';
import { sessionEnded } from './session-events';
import { settleIdempotencyKey } from './idempotency-key';

declare const __SSR__: boolean | undefined;
/** True in the server renderer's bundle (`vite build --ssr`, ADR 0072); false in the browser and in unit tests. */
export const RENDERING_ON_SERVER = typeof __SSR__ === 'boolean' && __SSR__;

const browserBaseQuery = fetchBaseQuery({
  baseUrl: '/api',
  prepareHeaders: (headers) => {
    const token = readToken();
    // A request may name its own token (logging out the admin session kept aside during an impersonation).
    if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  },
});

let serverBaseQuery: typeof browserBaseQuery | null = null;

/**
 * Server rendering only: the API's absolute base (the gateway itself, ADR 0072), set once when the renderer loads.
 * Pages render as an anonymous visitor, so no token is ever sent from the server.
 */
export function setServerApiBase(baseUrl: string): void {
  serverBaseQuery = fetchBaseQuery({ baseUrl });
}

const rawBaseQuery: typeof browserBaseQuery = (args, queryApi, extra) => (serverBaseQuery ?? browserBaseQuery)(args, queryApi, extra);

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

/** The server-rendered page's API answers, handed to the browser's store before it hydrates (ADR 0072). */
export const hydrated = createAction<Record<string, unknown>>('app/hydrated');

// On the server a query starts while its page renders (there are no effects there), so the renderer can wait for
// every query a page asked for and render again with the answers: the page itself says what it needs (ADR 0072).
const createAppApi = buildCreateApi(coreModule(), reactHooksModule({ unstable__sideEffectsInRender: RENDERING_ON_SERVER }));

/** The one RTK Query API; each feature injects its endpoints from its own *.api.ts file. */
export const api = createAppApi({
  reducerPath: 'api',
  // The state came from this same api on the server; naming its type here would make the api's type refer to itself.
  extractRehydrationInfo: (action, { reducerPath }) => (hydrated.match(action) ? (action.payload[reducerPath] as never) : undefined),
  baseQuery,
  tagTypes: ['Me', 'AdminUsers', 'AdminStats', 'AdminEmails', 'AuditLog', 'Settings', 'Listings', 'Listing', 'MyListings', 'Watchlist', 'SavedSearches', 'AdminListings', 'Bids', 'Standing', 'Sessions', 'PaymentMethod'],
  endpoints: () => ({}),
});
