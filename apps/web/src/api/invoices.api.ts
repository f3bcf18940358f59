import type { BuyNowResponse, InvoiceActionResponse, InvoiceDto, InvoicesResponse, MarkPaidResponse, OpenDisputeRequest } from '@market/contracts';
import { api } from '../lib/api';
import { retryableKeyHeaders } from '../lib/idempotency-key';

/** The signed-in user's invoice list; buying, marking paid and failures all reload it. */
const INVOICES = 'Invoices';

/** The buy-now purchase; listing_id also names the listing to reload afterwards. */
export interface BuyNowArgs {
  listing_id: string;
}

/**
 * /api/invoices (list, one, PDF, mark paid) and POST /api/listings/{id}/buy-now, which creates an invoice.
 * The tag is added here so that lib/api.ts needs no change for this area.
 */
export const invoicesApi = api.enhanceEndpoints({ addTagTypes: [INVOICES] }).injectEndpoints({
  endpoints: (build) => ({
    invoices: build.query<InvoicesResponse, void>({
      query: () => '/invoices',
      providesTags: [INVOICES],
    }),
    invoice: build.query<InvoiceDto, string>({
      query: (id) => `/invoices/${encodeURIComponent(id)}`,
      providesTags: [INVOICES],
    }),
    markInvoicePaid: build.mutation<MarkPaidResponse, string>({
      query: (id) => ({ url: `/invoices/${encodeURIComponent(id)}/mark-paid`, method: 'PATCH' }),
      // Also on failure: a refusal usually means the row shown is stale (already paid, or paid by card meanwhile).
      invalidatesTags: [INVOICES],
    }),
    /**
     * GET /api/invoices/{id}/pdf. The PDF never enters the store (a Blob is not serialisable): the answer is an object
     * URL for the caller to save and then revoke.
     */
    invoicePdfUrl: build.mutation<string, string>({
      queryFn: async (id, _api, _extra, baseQuery) => {
        const result = await baseQuery({
          url: `/invoices/${encodeURIComponent(id)}/pdf`,
          // Errors still come back as {detail} JSON; only a successful answer is read as a file.
          responseHandler: (response) => (response.ok ? response.blob() : response.json().catch(() => null)),
        });
        if (result.error) return { error: result.error };
        return { data: URL.createObjectURL(result.data as Blob) };
      },
    }),
    /** The transfer checklist and disputes (ADR 0039); a refusal also reloads, since it usually means a stale row. */
    markTransferStarted: build.mutation<InvoiceActionResponse, string>({
      query: (id) => ({ url: `/invoices/${encodeURIComponent(id)}/transfer-started`, method: 'POST' }),
      invalidatesTags: [INVOICES],
    }),
    confirmReceived: build.mutation<InvoiceActionResponse, string>({
      query: (id) => ({ url: `/invoices/${encodeURIComponent(id)}/transfer-received`, method: 'POST' }),
      invalidatesTags: [INVOICES],
    }),
    openDispute: build.mutation<InvoiceActionResponse, { id: string; request: OpenDisputeRequest }>({
      query: ({ id, request }) => ({ url: `/invoices/${encodeURIComponent(id)}/dispute`, method: 'POST', body: request }),
      invalidatesTags: [INVOICES],
    }),
    buyNow: build.mutation<BuyNowResponse, BuyNowArgs>({
      query: ({ listing_id }) => ({ url: `/listings/${encodeURIComponent(listing_id)}/buy-now`, method: 'POST', headers: retryableKeyHeaders(`/listings/${listing_id}/buy-now`) }),
      // Also on failure: "already sold" means the listing shown is stale.
      invalidatesTags: (_result, _error, { listing_id }) => [{ type: 'Listing', id: listing_id }, 'Listings', INVOICES],
    }),
  }),
});

export const {
  useInvoicesQuery,
  useInvoiceQuery,
  useMarkInvoicePaidMutation,
  useInvoicePdfUrlMutation,
  useBuyNowMutation,
  useMarkTransferStartedMutation,
  useConfirmReceivedMutation,
  useOpenDisputeMutation,
} = invoicesApi;
