import type { SiteInfo } from '@market/contracts';
import { api } from '../lib/api';

/** GET /api/site (ADR 0033): how this deployment runs, for every page (the TEST MODE banner). */
export const siteApi = api.injectEndpoints({
  endpoints: (build) => ({
    site: build.query<SiteInfo, void>({
      query: () => '/site',
      // The provider is chosen when billing starts; one answer serves the whole visit.
      keepUnusedDataFor: 3600,
    }),
  }),
});

export const { useSiteQuery } = siteApi;
