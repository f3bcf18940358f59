import { z } from 'zod';
import { UuidSchema } from '../common.schemas';

/** POST /api/invoices/{id}/create-payment (SPEC §7): the body's invoice_id, when sent, must name the path's invoice. */
export const CreatePaymentRequestSchema = z
  .object({
    invoice_id: UuidSchema.optional(),
    return_url: z.string().max(2000).optional(),
  })
  .strict();
export type CreatePaymentRequest = z.infer<typeof CreatePaymentRequestSchema>;

/**
 * The payment-creation answer (SPEC §3). `existing: true` means an open payment already exists: the gateway answers it
 * as 409 with the detail and these ids, so the dialog can continue the payment (ADR 0020).
 */
export interface CreatePaymentResponse {
  client_secret: string;
  payment_intent_id: string;
  status: string;
  message: string;
  existing: boolean;
  /** Which provider's client confirms it: `sandbox` (its own card form) or `stripe` (Stripe.js). */
  provider: string;
  /** Stripe's publishable key when the provider is Stripe (the web loads Stripe.js only then, D12); else null. */
  publishable_key: string | null;
}

export const PAYMENT_IN_PROGRESS_MESSAGE = 'A payment for this invoice is already in progress. You can complete the existing payment below.';

/** GET /api/payment-intents/{id}/status. */
export interface PaymentIntentStatusDto {
  id: string;
  status: string;
  invoice_id: string;
  /** Whole dollars. */
  amount: number;
  last_error: string | null;
}

/** The sandbox's card form (D12): test numbers decide the outcome; the number is never stored or logged. */
export const SandboxCardSchema = z
  .object({
    client_secret: z.string().min(1).max(200),
    card_number: z.string().min(1).max(30),
    exp_month: z.number().int().min(1).max(12),
    exp_year: z.number().int().min(2000).max(2100),
    cvc: z.string().regex(/^\d{3,4}$/, 'Your card security code is invalid.'),
  })
  .strict();
export type SandboxCard = z.infer<typeof SandboxCardSchema>;
export const SandboxCheckoutCardSchema = SandboxCardSchema.omit({ client_secret: true });
export type SandboxCheckoutCard = z.infer<typeof SandboxCheckoutCardSchema>;
export const SandboxConfirmStepSchema = z.object({ client_secret: z.string().min(1).max(200) }).strict();

/** What a sandbox confirmation did, like Stripe.js's confirmCardPayment: the intent, or the provider's error. */
export interface SandboxConfirmResult {
  payment_intent: PaymentIntentStatusDto;
  error: { code: string; message: string } | null;
}

/** POST /api/sandbox/checkout-sessions/{id}/complete: where the hosted page sends the buyer next. */
export interface SandboxCheckoutResult {
  redirect_url: string;
  status: string;
  error: { code: string; message: string } | null;
}

export interface CheckoutSessionResponse {
  checkout_url: string;
}

/** One row of the admin Payments tab (SPEC §3 payment intent, D11 capture deadline). */
export interface AdminPaymentIntentDto {
  id: string;
  provider: string;
  stripe_payment_intent_id: string;
  invoice_id: string;
  invoice_number: string;
  amount: number;
  currency: string;
  status: string;
  status_label: string;
  capture_method: string;
  metadata: { website_title: string; invoice_number: string };
  created_at: string;
  authorized_at: string | null;
  capture_deadline: string | null;
  expires_soon: boolean;
  captured_at: string | null;
  succeeded_at: string | null;
  refunded_at: string | null;
  canceled_at: string | null;
  last_error: string | null;
}

export const CapturePaymentRequestSchema = z
  .object({ amount_to_capture: z.number().int().positive().nullable().optional(), reason: z.string().max(500).optional() })
  .strict();
export const RefundPaymentRequestSchema = z
  .object({ amount_to_refund: z.number().int().positive().nullable().optional(), reason: z.string().max(500).optional() })
  .strict();
export type CapturePaymentRequest = z.infer<typeof CapturePaymentRequestSchema>;
export type RefundPaymentRequest = z.infer<typeof RefundPaymentRequestSchema>;

export interface PaymentActionResponse {
  message: string;
  payment_intent: AdminPaymentIntentDto;
}

/**
 * POST /api/webhooks/stripe as the gateway forwards it (ADR 0023): the body's exact bytes (base64, since the signature
 * covers them byte for byte) and the Stripe-Signature header. Billing verifies both.
 */
export const StripeWebhookMessageSchema = z
  .object({
    payload_base64: z.string().max(1_000_000).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Not base64'),
    signature: z.string().min(1).max(4000),
  })
  .strict();
export type StripeWebhookMessage = z.infer<typeof StripeWebhookMessageSchema>;

/** The webhook's answer: `duplicate` for an event id seen before, `ignored` for a type billing does not use. */
export interface StripeWebhookResult {
  received: true;
  result: 'applied' | 'duplicate' | 'ignored';
}
