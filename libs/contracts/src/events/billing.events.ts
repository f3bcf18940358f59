import { z } from 'zod';
import { id, text, time, dollars } from './fields.schemas';

/** What every payment.* event says about the money (D11). Money in dollars. */
export const PaymentFactsSchema = z.object({
  payment_intent_id: id,
  invoice_id: id,
  invoice_number: text,
  buyer_id: id,
  seller_id: id,
  website_title: text,
  amount: dollars,
  at: time,
  /** True when the payment went through the sandbox: no real money moved (ADR 0033). Absent from older events. */
  test_mode: z.boolean().optional(),
});
export type PaymentFacts = z.infer<typeof PaymentFactsSchema>;

/** Billing events, written by billing-service: invoices, payments and disputes (D10, D11, ADR 0039). */
export const BILLING_EVENTS = {
  /** A card hold lapsed uncaptured (D11): the invoice is payable again and the buyer is told by email. */
  'invoice.hold_expired': z.object({
    invoice_id: id,
    invoice_number: text,
    buyer_id: id,
    seller_id: id,
    website_title: text,
    payment_intent_id: id,
    expired_at: time,
    /** The hold was a sandbox one: no real money was held (ADR 0033). */
    test_mode: z.boolean().optional(),
  }),
  /** An invoice was made for a sale (D10): the buyer is asked to pay it (D19). Money in dollars. */
  'invoice.issued': z.object({
    invoice_id: id,
    invoice_number: text,
    buyer_id: id,
    seller_id: id,
    website_title: text,
    total_amount: dollars,
    due_date: time,
    issued_at: time,
    /** Issued while the sandbox runs the payments: paying it moves no real money (ADR 0033). */
    test_mode: z.boolean().optional(),
  }),
  /** The buyer's card was authorised and the funds are held (D11). */
  'payment.authorized': PaymentFactsSchema,
  /** The held funds were captured into the platform's escrow (D22): they stay held until the transfer is verified. */
  'payment.captured': PaymentFactsSchema,
  /** An admin refunded the payment or cancelled the hold (D11). */
  'payment.refunded': PaymentFactsSchema,
  /** The buyer disputed the transfer while the funds were held (ADR 0039): the seller is emailed; an admin decides. */
  'dispute.opened': z.object({
    dispute_id: id,
    invoice_id: id,
    invoice_number: text,
    buyer_id: id,
    seller_id: id,
    website_title: text,
    reason: text,
    /** The buyer's own words (20 to 2000 characters). */
    message: text,
    opened_at: time,
  }),
  /**
   * A dispute ended (ADR 0039): an admin released the funds to the seller or refunded the buyer, with a note both read,
   * or the provider let the hold lapse (no note). Both parties are emailed.
   */
  'dispute.resolved': z.object({
    dispute_id: id,
    invoice_id: id,
    invoice_number: text,
    buyer_id: id,
    seller_id: id,
    website_title: text,
    outcome: z.enum(['released', 'refunded', 'lapsed']),
    note: text.nullable(),
    closed_at: time,
  }),
  /**
   * The funds of a sale reached the seller (D22): the sale price less the success fee in force when the invoice was made
   * was transferred to the seller's payout account, and the invoice is paid. Money in dollars (the fee may carry cents).
   */
  'payout.sent': z.object({
    payout_id: id,
    invoice_id: id,
    invoice_number: text,
    buyer_id: id,
    seller_id: id,
    website_title: text,
    gross: dollars,
    fee: dollars,
    net: dollars,
    sent_at: time,
    test_mode: z.boolean().optional(),
  }),
  /**
   * The funds of a sale were released but the seller's payout account cannot take them yet (D22): the seller is asked to
   * finish it, once per payout; the money stays held until then.
   */
  'payout.waiting': z.object({
    payout_id: id,
    invoice_id: id,
    invoice_number: text,
    seller_id: id,
    website_title: text,
    net: dollars,
    account_status: text,
    at: time,
    test_mode: z.boolean().optional(),
  }),
  /** An open dispute's hold has under 48 hours left (ADR 0039): admins see it urgent, both parties are emailed once. */
  'dispute.escalated': z.object({
    dispute_id: id,
    invoice_id: id,
    invoice_number: text,
    buyer_id: id,
    seller_id: id,
    website_title: text,
    capture_deadline: time,
  }),
};
