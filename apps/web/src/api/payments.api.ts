import type {
  AdminPaymentIntentDto,
  CreatePaymentResponse,
  InvoiceActionResponse,
  PaymentActionResponse,
  ResolveDisputeRequest,
  PaymentIntentStatusDto,
  SandboxCheckoutCard,
  SandboxCheckoutResult,
  SandboxConfirmResult,
} from '@market/contracts';
import { api } from '../lib/api';
import type { SandboxCardFields } from '../lib/sandbox-card';
import { retryableKeyHeaders } from '../lib/idempotency-key';

const PAYMENT_INTENTS = 'AdminPaymentIntents';
/** The invoices list's tag (api/invoices.api.ts): a payment changes an invoice's status. */
const INVOICES = 'Invoices';

export type { SandboxCardFields } from '../lib/sandbox-card';

/**
 * Card payments (SPEC §7, ADR 0020/0022): create-payment, its status, the sandbox's confirmations and hosted checkout,
 * and the admin Payments tab. The card number goes out in the request body only: never a URL, never the cache.
 */
export const paymentsApi = api.enhanceEndpoints({ addTagTypes: [PAYMENT_INTENTS, INVOICES] }).injectEndpoints({
  endpoints: (build) => ({
    createPayment: build.mutation<CreatePaymentResponse, { invoice_id: string; return_url: string }>({
      query: (body) => ({ url: `/invoices/${encodeURIComponent(body.invoice_id)}/create-payment`, method: 'POST', body, headers: retryableKeyHeaders('/create-payment', body) }),
    }),
    paymentStatus: build.mutation<PaymentIntentStatusDto, string>({
      query: (id) => ({ url: `/payment-intents/${encodeURIComponent(id)}/status` }),
    }),
    sandboxConfirm: build.mutation<SandboxConfirmResult, { id: string; client_secret: string; card: SandboxCardFields }>({
      query: ({ id, client_secret, card }) => ({ url: `/sandbox/payment-intents/${encodeURIComponent(id)}/confirm`, method: 'POST', body: { client_secret, ...card } }),
    }),
    sandboxConfirmStep: build.mutation<SandboxConfirmResult, { id: string; client_secret: string }>({
      query: ({ id, client_secret }) => ({ url: `/sandbox/payment-intents/${encodeURIComponent(id)}/confirm-step`, method: 'POST', body: { client_secret } }),
    }),
    completeCheckout: build.mutation<SandboxCheckoutResult, { session_id: string; card: SandboxCheckoutCard }>({
      query: ({ session_id, card }) => ({ url: `/sandbox/checkout-sessions/${encodeURIComponent(session_id)}/complete`, method: 'POST', body: card }),
      invalidatesTags: [INVOICES],
    }),
    adminPaymentIntents: build.query<{ payment_intents: AdminPaymentIntentDto[] }, void>({
      query: () => '/admin/payment-intents',
      providesTags: [PAYMENT_INTENTS],
    }),
    /** Decides a disputed invoice with a note (ADR 0039); the payments and the invoices both change. */
    resolveDispute: build.mutation<InvoiceActionResponse, { invoice_id: string; request: ResolveDisputeRequest }>({
      query: ({ invoice_id, request }) => ({ url: `/admin/invoices/${encodeURIComponent(invoice_id)}/resolve-dispute`, method: 'POST', body: request }),
      invalidatesTags: [PAYMENT_INTENTS, INVOICES],
    }),
    capturePayment: build.mutation<PaymentActionResponse, string>({
      query: (id) => ({
        url: `/admin/payment-intents/${encodeURIComponent(id)}/capture`,
        method: 'POST',
        body: { amount_to_capture: null, reason: 'Domain transfer verified by admin' },
        headers: retryableKeyHeaders(`/capture/${id}`),
      }),
      // Also on failure: "already captured" means the row shown is stale.
      invalidatesTags: [PAYMENT_INTENTS],
    }),
    refundPayment: build.mutation<PaymentActionResponse, string>({
      query: (id) => ({
        url: `/admin/payment-intents/${encodeURIComponent(id)}/refund`,
        method: 'POST',
        body: { amount_to_refund: null, reason: 'Transaction cancelled by admin' },
        headers: retryableKeyHeaders(`/refund/${id}`),
      }),
      invalidatesTags: [PAYMENT_INTENTS],
    }),
  }),
});

export const {
  useCreatePaymentMutation,
  usePaymentStatusMutation,
  useSandboxConfirmMutation,
  useSandboxConfirmStepMutation,
  useCompleteCheckoutMutation,
  useAdminPaymentIntentsQuery,
  useCapturePaymentMutation,
  useRefundPaymentMutation,
  useResolveDisputeMutation,
} = paymentsApi;
