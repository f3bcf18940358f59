import type { PublicFees } from '@market/contracts';
import { api } from '../lib/api';

/** GET /api/fees (ADR 0026): what selling costs, for every page that says so. */
export const feesApi = api.injectEndpoints({
  endpoints: (build) => ({
    fees: build.query<PublicFees, void>({
      query: () => '/fees',
      // The gateway lets browsers keep it a minute; the store need not ask again sooner.
      keepUnusedDataFor: 60,
    }),
  }),
});

export const { useFeesQuery } = feesApi;
