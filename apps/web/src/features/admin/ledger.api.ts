import type { InvoiceLedgerDto, LedgerOverviewDto, ReconciliationResultDto } from '@market/contracts';
import { api } from '../../lib/api';

const LEDGER = 'Ledger';

/** The admin Ledger tab (D22): the overview, an invoice's money trail, and a reconciliation run now. */
export const ledgerApi = api.enhanceEndpoints({ addTagTypes: [LEDGER] }).injectEndpoints({
  endpoints: (build) => ({
    ledgerOverview: build.query<LedgerOverviewDto, void>({
      query: () => '/admin/ledger',
      providesTags: [LEDGER],
    }),
    invoiceLedger: build.query<InvoiceLedgerDto, string>({
      query: (id) => `/admin/ledger/invoices/${encodeURIComponent(id)}`,
      providesTags: [LEDGER],
    }),
    reconcileLedger: build.mutation<ReconciliationResultDto, void>({
      query: () => ({ url: '/admin/ledger/reconcile', method: 'POST' }),
      // Also on failure: a run that stopped half way may still have recorded differences.
      invalidatesTags: [LEDGER],
    }),
  }),
});

export const { useLedgerOverviewQuery, useInvoiceLedgerQuery, useReconcileLedgerMutation } = ledgerApi;
