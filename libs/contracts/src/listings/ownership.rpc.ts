import { defineRpc } from '../rpc';
import { OwnershipProofSchema, OwnershipRequestSchema } from './ownership.schemas';

/** listings-service's subjects of the ownership proof (ADR 0040), gathered into LISTINGS_RPC. */
export const LISTING_OWNERSHIP_RPC = {
  /** The seller's token and instructions for a listing (the token is made on first ask). */
  ownership: defineRpc('listings.ownership.get', OwnershipRequestSchema, OwnershipProofSchema),
  /** Checks the listing's domain for the token now (the seller only, paced); a miss is a 400, a slow domain a 503. */
  checkOwnership: defineRpc('listings.ownership.check', OwnershipRequestSchema, OwnershipProofSchema),
};
