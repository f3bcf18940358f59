import { z } from 'zod';
import { PAYOUT_STATUSES } from '@market/domain';
import { IsoDateTimeSchema, WholeDollarsSchema, DollarsAndCentsSchema } from '../common.schemas';
import { DisputeSchema, TransferChecklistSchema } from './transfer.schemas';

/** Invoice statuses (SPEC §4). */
export const INVOICE_STATUSES = ['pending', 'overdue', 'paid', 'payment_failed', 'awaiting_payment', 'payment_canceled', 'payment_authorized', 'disputed', 'cancelled'] as const;
export const InvoiceStatusSchema = z.enum(INVOICE_STATUSES);
export type InvoiceStatus = z.infer<typeof InvoiceStatusSchema>;

/** What was sold: an auction won or a bid accepted, an accepted offer on a fixed price, or a buy-now purchase. */
export const SaleTypeSchema = z.enum(['auction_win', 'accepted_offer', 'buy_now']);
export type SaleType = z.infer<typeof SaleTypeSchema>;

/** A buyer or seller of an invoice; `Unknown user` when the auth service cannot name them (D17). */
export const InvoicePartySchema = z.strictObject({ id: z.uuid(), username: z.string() }).meta({ id: 'Party' });
export type InvoiceParty = z.infer<typeof InvoicePartySchema>;

/** An invoice as its buyer or seller sees it (SPEC §3 Invoice, D10). Money in dollars; fees may carry cents. */
export const InvoiceSchema = z.strictObject({
  id: z.uuid(),
  invoice_number: z.string(),
  sale_type: SaleTypeSchema,
  role: z.enum(['buyer', 'seller']),
  listing_id: z.uuid(),
  website_title: z.string(),
  website_url: z.string().nullable(),
  total_amount: WholeDollarsSchema,
  status: InvoiceStatusSchema,
  /** A moment (7 days after the invoice was made), not a calendar date. */
  due_date: IsoDateTimeSchema,
  /**
   * The end of the payment window (ADR 0043): unless the card is authorised by then, the sale lapses and the invoice is
   * cancelled. Null for invoices made before the window existed.
   */
  pay_by: IsoDateTimeSchema.nullable(),
  created_at: IsoDateTimeSchema,
  paid_at: IsoDateTimeSchema.nullable(),
  buyer: InvoicePartySchema,
  seller: InvoicePartySchema,
  /** Seller view only (D10): the success fee in force when the invoice was made, the fee, and the payout. */
  success_fee_percent: z.number().nullable(),
  success_fee: DollarsAndCentsSchema.nullable(),
  payout: DollarsAndCentsSchema.nullable(),
  /** The buyer may start or retry a payment now (SPEC §4). */
  can_pay: z.boolean(),
  /** The seller may mark it paid (pending only). */
  can_mark_paid: z.boolean(),
  /** The sandbox runs the payments: no real money moved or moves for this invoice (ADR 0033). */
  test_mode: z.boolean(),
  /** The transfer checklist (ADR 0039); both steps null until done. */
  transfer: TransferChecklistSchema,
  /** The latest dispute of this invoice, open or decided; null when none was opened. */
  dispute: DisputeSchema.nullable(),
  /** The seller may mark the transfer started now (funds held). */
  can_mark_transfer_started: z.boolean(),
  /** The buyer may confirm receipt now (transfer started, funds held, no dispute open). */
  can_confirm_received: z.boolean(),
  /** The buyer may open a dispute now (funds held, none open). */
  can_dispute: z.boolean(),
  /** Why a cancelled invoice's sale ended (ADR 0043, 0063): unpaid in time, an admin's cancel, or the held funds refunded. */
  cancel_reason: z.enum(['unpaid', 'admin_cancelled', 'refunded']).nullable(),
  /**
   * Where the held money is (D22): when it was captured into escrow, when it goes to the seller by itself (the transfer
   * verified plus the inspection period; null while unverified or disputed), and the seller's payout once released.
   */
  escrow: z.strictObject({
    captured_at: IsoDateTimeSchema.nullable(),
    release_due_at: IsoDateTimeSchema.nullable(),
    payout_status: z.enum(PAYOUT_STATUSES).nullable(),
  }),
}).meta({ id: 'Invoice' });
export type InvoiceDto = z.infer<typeof InvoiceSchema>;

/** GET /api/invoices: the actor's invoices as buyer and as seller, newest first. */
export const InvoicesResponseSchema = z.strictObject({ invoices: z.array(InvoiceSchema) }).meta({ id: 'InvoicesResponse' });
export type InvoicesResponse = z.infer<typeof InvoicesResponseSchema>;

/** PATCH /api/invoices/{id}/mark-paid answer. */
export const MarkPaidResponseSchema = z.strictObject({ message: z.string(), invoice: InvoiceSchema }).meta({ id: 'MarkPaidResponse' });
export type MarkPaidResponse = z.infer<typeof MarkPaidResponseSchema>;

/** The answer to a transfer step or a dispute: what happened and the invoice as the caller now sees it. */
export const InvoiceActionResponseSchema = z.strictObject({ message: z.string(), invoice: InvoiceSchema }).meta({ id: 'InvoiceActionResponse' });
export type InvoiceActionResponse = z.infer<typeof InvoiceActionResponseSchema>;

/** billing.invoices.pdf answer (services only): the file's name and its bytes in base64. */
export const InvoicePdfFileSchema = z.strictObject({ file_name: z.string(), content_base64: z.base64() });
export type InvoicePdfFile = z.infer<typeof InvoicePdfFileSchema>;

/**
 * POST /api/listings/{id}/buy-now answer (SPEC §7): pay at the provider's checkout when one was set up
 * (redirect_to_payment + payment.checkout_url), else pay the invoice from the dashboard (fallback_payment_required +
 * invoice.id), or the sale stands but its payment could not be prepared (payment_setup_failed).
 */
export const BuyNowResponseSchema = z.strictObject({
  message: z.string(),
  redirect_to_payment: z.boolean(),
  payment: z.strictObject({ checkout_url: z.string() }).nullable(),
  fallback_payment_required: z.boolean(),
  invoice: z.strictObject({ id: z.uuid(), invoice_number: z.string() }).nullable(),
  payment_setup_failed: z.boolean(),
}).meta({ id: 'BuyNowResponse' });
export type BuyNowResponse = z.infer<typeof BuyNowResponseSchema>;

/** billing.stats (services only): a transaction is a paid invoice. */
export const BillingStatsSchema = z.strictObject({ total_transactions: z.number().int() });
export type BillingStats = z.infer<typeof BillingStatsSchema>;
