import { z } from 'zod';
import { IsoDateTimeSchema } from '../common.schemas';

/**
 * The buyer's proof that a bought site's domain is now theirs (ADR 0040): their own token, the two ways to publish it
 * on the invoice's website domain, and whether it was seen there. Only the buyer sees it, while the funds are held.
 */
export const TransferProofSchema = z.strictObject({
  invoice_id: z.uuid(),
  /** The host of the invoice's website address; null when it has none a record could sit on. */
  domain: z.string().nullable(),
  token: z.string(),
  txt_record: z.string(),
  file_url: z.string().nullable(),
  verified: z.boolean(),
  verified_at: IsoDateTimeSchema.nullable(),
  method: z.enum(['dns', 'file']).nullable(),
  /** The earliest moment the next check may run (checks are paced per invoice); null: now. */
  next_check_at: IsoDateTimeSchema.nullable(),
}).meta({ id: 'TransferProof' });
export type TransferProofDto = z.infer<typeof TransferProofSchema>;
