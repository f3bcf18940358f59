import type { PaymentMethodConfirmResult, PaymentMethodSetup, PaymentMethodStatus } from '@market/contracts';
import type { SandboxCardFields } from '../../api/payments.api';
import { api } from '../../lib/api';

/** The member's saved card (ADR 0041): its status, a SetupIntent to confirm, and the confirmations. */
export const paymentMethodApi = api.injectEndpoints({
  endpoints: (build) => ({
    paymentMethod: build.query<PaymentMethodStatus, void>({
      query: () => '/user/payment-method',
      providesTags: ['PaymentMethod'],
    }),
    setupPaymentMethod: build.mutation<PaymentMethodSetup, void>({
      query: () => ({ url: '/user/payment-method/setup', method: 'POST' }),
    }),
    sandboxConfirmSetup: build.mutation<PaymentMethodConfirmResult, { id: string; client_secret: string; card: SandboxCardFields }>({
      query: ({ id, client_secret, card }) => ({ url: `/sandbox/setup-intents/${encodeURIComponent(id)}/confirm`, method: 'POST', body: { client_secret, ...card } }),
      invalidatesTags: ['PaymentMethod'],
    }),
    syncPaymentMethod: build.mutation<PaymentMethodConfirmResult, string>({
      query: (setupIntentId) => ({ url: '/user/payment-method/sync', method: 'POST', body: { setup_intent_id: setupIntentId } }),
      invalidatesTags: ['PaymentMethod'],
    }),
  }),
});

export const { usePaymentMethodQuery, useSetupPaymentMethodMutation, useSandboxConfirmSetupMutation, useSyncPaymentMethodMutation } = paymentMethodApi;
