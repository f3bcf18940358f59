import type {
  ConnectStripe,
  FinishGa4,
  StartGa4,
  VerificationConnectionsDto,
  VerificationSource,
} from '@market/contracts';
import { api } from '../lib/api';

/** A listing's revenue and traffic connections, as its seller sees them (never a key or token). */
const CONNECTIONS = 'VerificationConnections' as const;

const connectionsPath = (id: string) => `/listings/${encodeURIComponent(id)}/verifications`;

/**
 * What shows a listing's verified figures and badges: its page, its cards (browse, the seller's own list) and the admin
 * review. A connection, a disconnection and a first read that came back (ADR 0084) change them.
 */
export const listingFigureTags = (id: string) => [{ type: 'Listing' as const, id }, 'Listings' as const, 'MyListings' as const, 'AdminListings' as const];

const afterChange = (id: string) => [{ type: CONNECTIONS, id }, ...listingFigureTags(id)];

/** The GA4 property to read, for one listing. */
export interface StartGa4Args extends StartGa4 {
  id: string;
}

/** /api/listings/{id}/verifications and /api/verifications/ga4/callback: verified revenue and traffic (D24, ADR 0084). */
export const verifiedFiguresApi = api.enhanceEndpoints({ addTagTypes: [CONNECTIONS] }).injectEndpoints({
  endpoints: (build) => ({
    verificationConnections: build.query<VerificationConnectionsDto, string>({
      query: (id) => connectionsPath(id),
      providesTags: (_result, _error, id) => [{ type: CONNECTIONS, id }],
    }),
    connectStripe: build.mutation<VerificationConnectionsDto, ConnectStripe & { id: string }>({
      query: ({ id, key }) => ({ url: `${connectionsPath(id)}/stripe`, method: 'POST', body: { key } }),
      // A refused key changes nothing the listing shows; the connection's last error may have changed. A kept key is read
      // in full by a background job a moment later (ADR 0084): the panel follows it (useVerificationConnections).
      invalidatesTags: (result, _error, { id }) => (result ? afterChange(id) : [{ type: CONNECTIONS, id }]),
    }),
    startGa4: build.mutation<{ authorize_url: string }, StartGa4Args>({
      query: ({ id, property_id }) => ({ url: `${connectionsPath(id)}/ga4`, method: 'POST', body: { property_id } }),
    }),
    finishGa4: build.mutation<VerificationConnectionsDto, FinishGa4>({
      query: (body) => ({ url: '/verifications/ga4/callback', method: 'POST', body }),
      invalidatesTags: (result) => (result ? afterChange(result.listing_id) : []),
    }),
    disconnectVerification: build.mutation<VerificationConnectionsDto, { id: string; source: VerificationSource }>({
      query: ({ id, source }) => ({ url: `${connectionsPath(id)}/${encodeURIComponent(source)}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, { id }) => afterChange(id),
    }),
  }),
});

export const {
  useVerificationConnectionsQuery,
  useConnectStripeMutation,
  useStartGa4Mutation,
  useFinishGa4Mutation,
  useDisconnectVerificationMutation,
} = verifiedFiguresApi;
