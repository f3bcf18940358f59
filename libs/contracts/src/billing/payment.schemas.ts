import { z } from 'zod';
import { DisputeSchema, TransferChecklistSchema } from './transfer.schemas';
import { MAX_DOLLARS, PAYOUT_STATUSES } from '@market/domain';
import { PayoutAccountStatusSchema } from './payout.schemas';
import { IsoDateTimeSchema, UuidSchema, WholeDollarsSchema, DollarsAndCentsSchema } from '../common.schemas';

/** POST /api/invoices/{id}/create-payment (SPEC §7): the body's invoice_id, when sent, must name the path's invoice. */
export const CreatePaymentRequestSchema = z
  .object({
    invoice_id: UuidSchema.optional(),
    return_url: z.string().max(2000).optional(),
  })
  .strict().meta({ id: 'CreatePaymentRequest' });
export type CreatePaymentRequest = z.infer<typeof CreatePaymentRequestSchema>;

/**
 * The payment-creation answer (SPEC §3). `existing: true` means an open payment already exists: the gateway answers it
 * as 409 with the detail and these ids, so the dialog can continue the payment (ADR 0020).
 */
export const CreatePaymentResponseSchema = z.strictObject({
  client_secret: z.string(),
  payment_intent_id: z.uuid(),
  status: z.string(),
  message: z.string(),
  existing: z.boolean(),
  /** Which provider's client confirms it: `sandbox` (its own card form) or `stripe` (Stripe.js). */
  provider: z.string(),
  /** Stripe's publishable key when the provider is Stripe (the web loads Stripe.js only then, D12); else null. */
  publishable_key: z.string().nullable(),
}).meta({ id: 'CreatePaymentResponse' });
export type CreatePaymentResponse = z.infer<typeof CreatePaymentResponseSchema>;

/** The 409 answer of POST /api/invoices/{id}/create-payment: the SPEC §8 detail plus the open payment (ADR 0020). */
// Its `status` stays the open payment's (the SPEC's field), so the problem's own status is left out: RFC 9457 makes it
// optional, and a client reads the HTTP status (ADR 0079).
export const PaymentInProgressResponseSchema = CreatePaymentResponseSchema.extend({
  type: z.string(),
  title: z.string(),
  code: z.literal('conflict'),
  detail: z.string(),
}).meta({
  examples: [
    {
      type: '/api/errors/conflict',
      title: 'Conflict',
      code: 'conflict',
      detail: 'A payment for this invoice is already in progress. You can complete the existing payment below.',
      client_secret: 'pi_3QxExample_secret_8fKe',
      payment_intent_id: '6f1c1a52-4c6e-4b8e-9d59-2f0f3d8a7b10',
      status: 'requires_payment_method',
      message: 'Payment already in progress',
      existing: true,
      provider: 'sandbox',
      publishable_key: null,
    },
  ],
});

export const PAYMENT_IN_PROGRESS_MESSAGE = 'A payment for this invoice is already in progress. You can complete the existing payment below.';

/** GET /api/payment-intents/{id}/status. */
export const PaymentIntentStatusSchema = z.strictObject({
  id: z.uuid(),
  status: z.string(),
  invoice_id: z.uuid(),
  amount: WholeDollarsSchema,
  last_error: z.string().nullable(),
}).meta({ id: 'PaymentIntentStatus' });
export type PaymentIntentStatusDto = z.infer<typeof PaymentIntentStatusSchema>;

/** The sandbox's card form (D12): test numbers decide the outcome; the number is never stored or logged. */
export const SandboxCardSchema = z
  .object({
    client_secret: z.string().min(1).max(200),
    card_number: z.string().min(1).max(30).meta({ example: '4242 4242 4242 4242' }),
    exp_month: z.number().int().min(1).max(12),
    exp_year: z.number().int().min(2000).max(2100),
    cvc: z.string().regex(/^\d{3,4}$/, 'Your card security code is invalid.').meta({ example: '123' }),
  })
  .strict().meta({ id: 'SandboxCardRequest' });
export type SandboxCard = z.infer<typeof SandboxCardSchema>;
export const SandboxCheckoutCardSchema = SandboxCardSchema.omit({ client_secret: true }).meta({ id: 'SandboxCheckoutCardRequest' });
export type SandboxCheckoutCard = z.infer<typeof SandboxCheckoutCardSchema>;
export const SandboxConfirmStepSchema = z.object({ client_secret: z.string().min(1).max(200) }).strict().meta({ id: 'SandboxConfirmStepRequest' });

/** The id of a sandbox hosted checkout session (D12). */
export const CheckoutSessionIdSchema = z.string().regex(/^cs_sbx_[0-9a-f]{24}$/, 'Not a valid id').meta({ example: 'cs_sbx_5f0c2b7e3d4a4c1e9b8a6e2f' });

/** A provider's refusal, as Stripe.js reports it. */
export const ProviderErrorSchema = z.strictObject({ code: z.string(), message: z.string() }).meta({ id: 'ProviderError' });

/** What a sandbox confirmation did, like Stripe.js's confirmCardPayment: the intent, or the provider's error. */
export const SandboxConfirmResultSchema = z.strictObject({
  payment_intent: PaymentIntentStatusSchema,
  error: ProviderErrorSchema.nullable(),
}).meta({ id: 'SandboxConfirmResult' });
export type SandboxConfirmResult = z.infer<typeof SandboxConfirmResultSchema>;

/** POST /api/sandbox/checkout-sessions/{id}/complete: where the hosted page sends the buyer next. */
export const SandboxCheckoutResultSchema = z.strictObject({
  redirect_url: z.string(),
  status: z.string(),
  error: ProviderErrorSchema.nullable(),
}).meta({ id: 'SandboxCheckoutResult' });
export type SandboxCheckoutResult = z.infer<typeof SandboxCheckoutResultSchema>;

/** POST /api/invoices/{id}/create-stripe-session: the provider's hosted checkout page for the invoice. */
export const CheckoutSessionResponseSchema = z.strictObject({ checkout_url: z.string() }).meta({ id: 'CheckoutSessionResponse' });
export type CheckoutSessionResponse = z.infer<typeof CheckoutSessionResponseSchema>;

/** One row of the admin Payments tab (SPEC §3 payment intent, D11 capture deadline). */
export const AdminPaymentIntentSchema = z.strictObject({
  id: z.uuid(),
  provider: z.string(),
  /** The provider's id of the intent (Stripe's pi_..., or the sandbox's). */
  stripe_payment_intent_id: z.string(),
  invoice_id: z.uuid(),
  invoice_number: z.string(),
  amount: WholeDollarsSchema,
  currency: z.string(),
  status: z.string(),
  status_label: z.string(),
  capture_method: z.string(),
  metadata: z.strictObject({ website_title: z.string(), invoice_number: z.string() }),
  created_at: IsoDateTimeSchema,
  authorized_at: IsoDateTimeSchema.nullable(),
  /** A hold's last day (D11: 7 days after authorization); null unless the funds are held. */
  capture_deadline: IsoDateTimeSchema.nullable(),
  /** Under 48 hours left to capture. */
  expires_soon: z.boolean(),
  captured_at: IsoDateTimeSchema.nullable(),
  succeeded_at: IsoDateTimeSchema.nullable(),
  refunded_at: IsoDateTimeSchema.nullable(),
  canceled_at: IsoDateTimeSchema.nullable(),
  last_error: z.string().nullable(),
  /** The invoice's status (`disputed` while a dispute waits for an admin). */
  invoice_status: z.string(),
  /** The invoice's transfer checklist, beside Release Funds (ADR 0039). */
  transfer: TransferChecklistSchema,
  /** The invoice's latest dispute, open or decided, when this payment is the invoice's latest. */
  dispute: DisputeSchema.nullable(),
  /** An open dispute whose hold has under 48 hours left, or none: an admin must decide now (ADR 0039). */
  dispute_urgent: z.boolean(),
  /**
   * When the funds were captured into the platform's balance, while they are still there (D22): until the payout is
   * sent (a release waiting for the seller's account still holds them) or they are refunded; then null.
   */
  held_in_escrow_since: IsoDateTimeSchema.nullable(),
  /** The seller's payout of this invoice once the release was decided (D22): its status, net, and why it waits. */
  payout: z
    .strictObject({
      status: z.enum(PAYOUT_STATUSES),
      net: DollarsAndCentsSchema,
      fee: DollarsAndCentsSchema,
      seller_account_status: PayoutAccountStatusSchema,
      paid_at: IsoDateTimeSchema.nullable(),
    })
    .nullable(),
}).meta({ id: 'AdminPaymentIntent' });
export type AdminPaymentIntentDto = z.infer<typeof AdminPaymentIntentSchema>;

/** GET /api/admin/payment-intents: newest first, at most 1000. */
export const AdminPaymentIntentsResponseSchema = z.strictObject({ payment_intents: z.array(AdminPaymentIntentSchema) }).meta({ id: 'AdminPaymentIntentsResponse' });
export type AdminPaymentIntentsResponse = z.infer<typeof AdminPaymentIntentsResponseSchema>;

export const CapturePaymentRequestSchema = z
  .object({ amount_to_capture: z.number().int().positive().max(MAX_DOLLARS).nullable().optional(), reason: z.string().max(500).optional() })
  .strict().meta({ id: 'CapturePaymentRequest' });
export const RefundPaymentRequestSchema = z
  .object({ amount_to_refund: z.number().int().positive().max(MAX_DOLLARS).nullable().optional(), reason: z.string().max(500).optional() })
  .strict().meta({ id: 'RefundPaymentRequest' });
export type CapturePaymentRequest = z.infer<typeof CapturePaymentRequestSchema>;
export type RefundPaymentRequest = z.infer<typeof RefundPaymentRequestSchema>;

export const PaymentActionResponseSchema = z.strictObject({ message: z.string(), payment_intent: AdminPaymentIntentSchema }).meta({ id: 'PaymentActionResponse' });
export type PaymentActionResponse = z.infer<typeof PaymentActionResponseSchema>;

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
export const StripeWebhookResultSchema = z.strictObject({ received: z.literal(true), result: z.enum(['applied', 'duplicate', 'ignored']) }).meta({ id: 'StripeWebhookResult' });
export type StripeWebhookResult = z.infer<typeof StripeWebhookResultSchema>;

/** billing.payments.create: the invoice the path names and the body (its invoice_id, when sent, must match). */
export const CreatePaymentMessageSchema = z.object({ id: UuidSchema, request: CreatePaymentRequestSchema }).strict();
/** billing.payments.sandbox_confirm: the intent the path names and the sandbox card form. */
export const SandboxConfirmMessageSchema = z.object({ id: UuidSchema, card: SandboxCardSchema }).strict();
/** billing.payments.sandbox_confirm_step: the intent the path names and its client secret. */
export const SandboxConfirmStepMessageSchema = z.object({ id: UuidSchema, request: SandboxConfirmStepSchema }).strict();
/** billing.payments.sandbox_complete_checkout: the checkout session the path names and the card. */
export const SandboxCheckoutMessageSchema = z.object({ id: CheckoutSessionIdSchema, card: SandboxCheckoutCardSchema }).strict();
/** billing.payments.admin_capture: the intent the path names and the admin's request. */
export const CapturePaymentMessageSchema = z.object({ id: UuidSchema, request: CapturePaymentRequestSchema }).strict();
/** billing.payments.admin_refund: the intent the path names and the admin's request. */
export const RefundPaymentMessageSchema = z.object({ id: UuidSchema, request: RefundPaymentRequestSchema }).strict();
