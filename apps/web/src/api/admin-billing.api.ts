import type { AdminTransactionsResponse, CancelSale, InvoiceActionResponse, InvoiceAnalytics, TransactionStatus } from '@market/contracts';
import { api } from '../lib/api';

const TRANSACTIONS = 'AdminTransactions';
const ANALYTICS = 'InvoiceAnalytics';

/**
 * GET /api/admin/transactions and /api/admin/invoice-analytics (ADR 0021). The tags are added here so that lib/api.ts
 * needs no change for this area.
 */
export const adminBillingApi = api.enhanceEndpoints({ addTagTypes: [TRANSACTIONS, ANALYTICS] }).injectEndpoints({
  endpoints: (build) => ({
    adminTransactions: build.query<AdminTransactionsResponse, 'all' | TransactionStatus>({
      query: (status) => `/admin/transactions?status=${encodeURIComponent(status)}`,
      providesTags: [TRANSACTIONS],
    }),
    invoiceAnalytics: build.query<InvoiceAnalytics, void>({
      query: () => '/admin/invoice-analytics',
      providesTags: [ANALYTICS],
    }),
    /** An admin cancels an unpaid sale with a reason (ADR 0043); the listing goes back on sale. */
    cancelSale: build.mutation<InvoiceActionResponse, { id: string; request: CancelSale }>({
      query: ({ id, request }) => ({ url: `/admin/invoices/${encodeURIComponent(id)}/cancel`, method: 'POST', body: request }),
      invalidatesTags: [TRANSACTIONS, ANALYTICS],
    }),
  }),
});

export const { useAdminTransactionsQuery, useLazyInvoiceAnalyticsQuery, useCancelSaleMutation } = adminBillingApi;
