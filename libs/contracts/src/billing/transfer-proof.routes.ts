import { z } from 'zod';
import { defineRoute } from '../http/define-route';
import { UuidSchema } from '../common.schemas';
import { TransferProofSchema } from './transfer-proof.schemas';

const IdPath = z.object({ id: UuidSchema });

/** The buyer proving the bought domain is now theirs (ADR 0040). */
export const TRANSFER_PROOF_ROUTES = {
  get: defineRoute({
    method: 'get',
    path: '/invoices/{id}/transfer-proof',
    tag: 'invoices',
    summary: "The buyer's transfer token for the bought site's domain, how to publish it, and whether the transfer is verified",
    description: 'The buyer only, while the funds are held (409 otherwise).',
    auth: 'user',
    params: IdPath,
    status: 200,
    reply: TransferProofSchema,
    errors: [400, 403, 404, 409],
  }),
  check: defineRoute({
    method: 'post',
    path: '/invoices/{id}/transfer-proof/check',
    tag: 'invoices',
    summary: "Check the bought site's domain for the buyer's token now (DNS TXT record or well-known file)",
    description:
      'The buyer only, while the funds are held. A match marks the invoice "transfer verified" (its transfer checklist\'s ' +
      'verified_at), which admins see beside Release Funds. 400 with what to fix when the token is not there, 503 when the domain ' +
      'did not answer within 3 s, 429 when checked less than 10 s ago or 20 times within the hour.',
    auth: 'user',
    params: IdPath,
    status: 200,
    reply: TransferProofSchema,
    errors: [400, 403, 404, 409, 429, 503],
  }),
};
