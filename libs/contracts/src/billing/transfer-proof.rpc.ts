import { defineRpc } from '../rpc';
import { IdRequestSchema } from '../common.schemas';
import { TransferProofSchema } from './transfer-proof.schemas';

/** billing-service's subjects of the transfer proof (ADR 0040), gathered into BILLING_RPC. */
export const TRANSFER_PROOF_RPC = {
  /** The buyer's token for a held invoice's domain (made on first ask) and whether the transfer is verified. */
  transferProof: defineRpc('billing.invoices.transfer_proof', IdRequestSchema, TransferProofSchema),
  /** Checks the domain for the buyer's token now (the buyer only, funds held, paced); a miss is a 400, a slow domain a 503. */
  checkTransferProof: defineRpc('billing.invoices.check_transfer_proof', IdRequestSchema, TransferProofSchema),
};
