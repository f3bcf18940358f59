import { z } from 'zod';
import { defineRoute } from '../http/define-route';
import { UuidSchema } from '../common.schemas';
import { OwnershipProofSchema } from './ownership.schemas';

const ListingPath = z.object({ id: UuidSchema });

/** A seller proving control of a listing's domain (ADR 0040). */
export const LISTING_OWNERSHIP_ROUTES = {
  get: defineRoute({
    method: 'get',
    path: '/listings/{id}/ownership',
    tag: 'listings',
    summary: "The seller's ownership token for a listing's domain, how to publish it, and whether it is verified",
    description:
      'The seller only: 403 for anyone else who can see the listing (admins included), 404 for one they cannot. The token is made on the ' +
      'first ask and kept for the listing; `next_check_at` says when a check may run again (null: now).',
    auth: 'user',
    params: ListingPath,
    status: 200,
    reply: OwnershipProofSchema,
    errors: [400, 403, 404],
  }),
  check: defineRoute({
    method: 'post',
    path: '/listings/{id}/ownership/check',
    tag: 'listings',
    summary: "Check the listing's domain for the seller's token now (DNS TXT record or well-known file)",
    description:
      'The seller only. 400 with what to fix when the token is not there (or another is), 503 when the domain did not ' +
      'answer within 3 s, 429 when checked less than 10 s ago or 20 times within the hour. Private and reserved addresses are never contacted.',
    auth: 'user',
    params: ListingPath,
    status: 200,
    reply: OwnershipProofSchema,
    errors: [400, 403, 404, 429, 503],
  }),
};
