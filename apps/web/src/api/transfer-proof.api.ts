import type { TransferProofDto } from '@market/contracts';
import { api } from '../lib/api';

/** /api/invoices/{id}/transfer-proof: the buyer verifying the transfer with their own token (ADR 0040). */
export const transferProofApi = api.injectEndpoints({
  endpoints: (build) => ({
    transferProof: build.query<TransferProofDto, string>({
      query: (id) => `/invoices/${encodeURIComponent(id)}/transfer-proof`,
    }),
    checkTransferProof: build.mutation<TransferProofDto, string>({
      query: (id) => ({ url: `/invoices/${encodeURIComponent(id)}/transfer-proof/check`, method: 'POST', body: {} }),
    }),
  }),
});

export const { useTransferProofQuery, useCheckTransferProofMutation } = transferProofApi;
