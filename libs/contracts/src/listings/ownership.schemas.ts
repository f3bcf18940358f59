import { z } from 'zod';
import { IsoDateTimeSchema, UuidSchema } from '../common.schemas';

/** `{listing_id}` of the listing whose domain a seller proves (listings.ownership.get / .check). */
export const OwnershipRequestSchema = z.object({ listing_id: UuidSchema }).strict();

/**
 * A seller's ownership proof of a listing's domain (ADR 0040): the token, the two ways to publish it, and whether the
 * listing's current website address is verified. Only the seller sees it; everyone sees `ownership_verified` on the
 * listing itself.
 */
export const OwnershipProofSchema = z.strictObject({
  listing_id: z.uuid(),
  /** The host of the listing's website address; null when the address has none a record could sit on. */
  domain: z.string().nullable(),
  token: z.string(),
  /** The DNS TXT record to add: on the domain itself, with this value. */
  txt_record: z.string(),
  /** Where the file goes, and what it holds (the token alone, or the TXT value, on a line of its own). */
  file_url: z.string().nullable(),
  verified: z.boolean(),
  verified_at: IsoDateTimeSchema.nullable(),
  /** How the last successful check found the token. */
  method: z.enum(['dns', 'file']).nullable(),
  /** The earliest moment the next check may run (checks are paced per listing); null: now. */
  next_check_at: IsoDateTimeSchema.nullable(),
}).meta({ id: 'OwnershipProof' });
export type OwnershipProofDto = z.infer<typeof OwnershipProofSchema>;
