import type { AdminTransactionsResponse, InvoiceAnalytics, TransactionStatus } from '@market/contracts';
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
  }),
});

export const { useAdminTransactionsQuery, useLazyInvoiceAnalyticsQuery } = adminBillingApi;
