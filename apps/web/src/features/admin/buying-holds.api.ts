import type { BuyingHold, BuyingHoldsResponse } from '@market/contracts';
import { api } from '../../lib/api';

const HOLDS = 'BuyingHolds';

/** GET /api/admin/buying-holds and POST /api/admin/users/{id}/lift-buying-hold (ADR 0043), for the Users tab. */
export const buyingHoldsApi = api.enhanceEndpoints({ addTagTypes: [HOLDS] }).injectEndpoints({
  endpoints: (build) => ({
    buyingHolds: build.query<BuyingHoldsResponse, void>({ query: () => '/admin/buying-holds', providesTags: [HOLDS] }),
    liftBuyingHold: build.mutation<BuyingHold, string>({
      query: (id) => ({ url: `/admin/users/${encodeURIComponent(id)}/lift-buying-hold`, method: 'POST', body: {} }),
      invalidatesTags: [HOLDS],
    }),
  }),
});

export const { useBuyingHoldsQuery, useLiftBuyingHoldMutation } = buyingHoldsApi;
