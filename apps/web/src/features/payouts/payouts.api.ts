import type { PayoutAccountDto, PayoutOnboardingDto, SandboxOnboardingLink, SandboxOnboardingRequest, SandboxOnboardingResult, SellerPayoutsDto } from '@market/contracts';
import { api } from '../../lib/api';

const ACCOUNT = 'PayoutAccount';
const PAYOUTS = 'Payouts';

/**
 * A seller's payout account and payouts (D22): the account's status, a link to the provider's hosted onboarding, the
 * sales' money, and the sandbox's TEST MODE onboarding page. The tags are added here so lib/api.ts needs no change.
 */
export const payoutsApi = api.enhanceEndpoints({ addTagTypes: [ACCOUNT, PAYOUTS] }).injectEndpoints({
  endpoints: (build) => ({
    payoutAccount: build.query<PayoutAccountDto, void>({
      query: () => '/user/payout-account',
      providesTags: [ACCOUNT],
    }),
    /** A fresh onboarding link each time: the provider's links expire within minutes, so none is cached. */
    startPayoutOnboarding: build.mutation<PayoutOnboardingDto, void>({
      query: () => ({ url: '/user/payout-account/onboarding', method: 'POST' }),
    }),
    payouts: build.query<SellerPayoutsDto, void>({
      query: () => '/user/payouts',
      providesTags: [PAYOUTS],
    }),
    sandboxOnboardingLink: build.query<SandboxOnboardingLink, string>({
      query: (id) => `/sandbox/payout-onboarding/${encodeURIComponent(id)}`,
    }),
    completeSandboxOnboarding: build.mutation<SandboxOnboardingResult, { id: string; outcome: SandboxOnboardingRequest['outcome'] }>({
      query: ({ id, outcome }) => ({ url: `/sandbox/payout-onboarding/${encodeURIComponent(id)}/complete`, method: 'POST', body: { outcome } }),
      // A waiting payout may be sent once the account can take it: both views change.
      invalidatesTags: [ACCOUNT, PAYOUTS],
    }),
  }),
});

export const { usePayoutAccountQuery, useStartPayoutOnboardingMutation, usePayoutsQuery, useSandboxOnboardingLinkQuery, useCompleteSandboxOnboardingMutation } = payoutsApi;
