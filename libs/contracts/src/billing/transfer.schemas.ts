import { z } from 'zod';
import {
  DISPUTE_MESSAGE_MAX,
  DISPUTE_MESSAGE_MIN,
  DISPUTE_REASONS,
  RESOLUTION_NOTE_MAX,
  RESOLUTION_NOTE_MIN,
} from '@market/domain';
import { IsoDateTimeSchema, UuidSchema } from '../common.schemas';

/** The transfer checklist of an invoice whose funds are held (ADR 0039): each step's time, or null while undone. */
export const TransferChecklistSchema = z.strictObject({
  /** The seller said the site's transfer has started. */
  started_at: IsoDateTimeSchema.nullable(),
  /** The buyer confirmed they have received the site. */
  received_at: IsoDateTimeSchema.nullable(),
  /** "Transfer verified": the buyer's own token showed on the site's domain (ADR 0040). */
  verified_at: IsoDateTimeSchema.nullable(),
}).meta({ id: 'TransferChecklist' });
export type TransferChecklist = z.infer<typeof TransferChecklistSchema>;

export const DisputeReasonSchema = z.enum(DISPUTE_REASONS);

/** A buyer's dispute of a transfer and, once decided, its outcome (ADR 0039). */
export const DisputeSchema = z.strictObject({
  id: z.uuid(),
  status: z.enum(['open', 'resolving', 'closed']),
  reason: DisputeReasonSchema,
  reason_label: z.string(),
  message: z.string(),
  opened_at: IsoDateTimeSchema,
  /** released (funds to the seller), refunded (to the buyer), or lapsed (the provider ended the hold); null while open. */
  outcome: z.enum(['released', 'refunded', 'lapsed']).nullable(),
  /** The admin's note on the decision, shown to both parties. */
  resolution_note: z.string().nullable(),
  closed_at: IsoDateTimeSchema.nullable(),
}).meta({ id: 'Dispute' });
export type DisputeDto = z.infer<typeof DisputeSchema>;

// Lengths count characters as PostgreSQL's char_length does (code points), not UTF-16 units: an emoji is one, so what
// passes here always passes the table's CHECK.
const characters = (value: string) => [...value].length;

/** POST /api/invoices/{id}/dispute: the buyer's reason from the fixed list and what went wrong. */
export const OpenDisputeRequestSchema = z
  .object({
    reason: DisputeReasonSchema,
    message: z
      .string()
      .trim()
      .refine((v) => characters(v) >= DISPUTE_MESSAGE_MIN, `Describe the problem in at least ${DISPUTE_MESSAGE_MIN} characters`)
      .refine((v) => characters(v) <= DISPUTE_MESSAGE_MAX, `Keep the description under ${DISPUTE_MESSAGE_MAX} characters`)
      .meta({ example: 'The domain was never moved to my registrar account, and the seller stopped answering.' }),
  })
  .strict().meta({ id: 'OpenDisputeRequest' });
export type OpenDisputeRequest = z.infer<typeof OpenDisputeRequestSchema>;

/** POST /api/admin/invoices/{id}/resolve-dispute: release (capture) or refund, with the note both parties read. */
export const ResolveDisputeRequestSchema = z
  .object({
    action: z.enum(['release', 'refund']),
    note: z
      .string()
      .trim()
      .refine((v) => characters(v) >= RESOLUTION_NOTE_MIN, `Write a note of at least ${RESOLUTION_NOTE_MIN} characters explaining the decision`)
      .refine((v) => characters(v) <= RESOLUTION_NOTE_MAX, `Keep the note under ${RESOLUTION_NOTE_MAX} characters`)
      .meta({ example: 'The registrar confirms the transfer completed on 1 December: releasing to the seller.' }),
  })
  .strict().meta({ id: 'ResolveDisputeRequest' });
export type ResolveDisputeRequest = z.infer<typeof ResolveDisputeRequestSchema>;

/** billing.invoices.open_dispute: the invoice the path names and the buyer's request. */
export const OpenDisputeMessageSchema = z.object({ id: UuidSchema, request: OpenDisputeRequestSchema }).strict();
/** billing.disputes.admin_resolve: the invoice the path names and the admin's decision. */
export const ResolveDisputeMessageSchema = z.object({ id: UuidSchema, request: ResolveDisputeRequestSchema }).strict();
