import { z } from 'zod';
import { defineRoute } from '../http/define-route';
import { UuidSchema } from '../common.schemas';
import { AdminTransactionsQuerySchema, AdminTransactionsResponseSchema, InvoiceAnalyticsSchema } from './admin-billing.schemas';
import { BuyNowResponseSchema, InvoiceActionResponseSchema, InvoiceSchema, InvoicesResponseSchema, MarkPaidResponseSchema } from './invoice.schemas';
import { OpenDisputeRequestSchema, ResolveDisputeRequestSchema } from './transfer.schemas';
import {
  AdminPaymentIntentsResponseSchema,
  CapturePaymentRequestSchema,
  CheckoutSessionIdSchema,
  CheckoutSessionResponseSchema,
  CreatePaymentRequestSchema,
  CreatePaymentResponseSchema,
  PaymentInProgressResponseSchema,
  PaymentActionResponseSchema,
  PaymentIntentStatusSchema,
  RefundPaymentRequestSchema,
  SandboxCardSchema,
  SandboxCheckoutCardSchema,
  SandboxCheckoutResultSchema,
  SandboxConfirmResultSchema,
  SandboxConfirmStepSchema,
  StripeWebhookResultSchema,
} from './payment.schemas';

const IdPath = z.object({ id: UuidSchema });

/** Invoices (SPEC §2 Invoices tab, §7, D10) and buy-now (D4). */
export const INVOICES_ROUTES = {
  list: defineRoute({
    method: 'get',
    path: '/invoices',
    tag: 'invoices',
    summary: "The caller's invoices as buyer and as seller, newest first",
    description:
      "At most 500. Each invoice gives the caller's role on it and what they may do now (the `can_*` flags); the success fee and payout " +
      'show only where the caller is the seller.',
    auth: 'user',
    status: 200,
    reply: InvoicesResponseSchema,
  }),
  get: defineRoute({
    method: 'get',
    path: '/invoices/{id}',
    tag: 'invoices',
    summary: 'One invoice, for its buyer, its seller or an admin',
    description: 'The seller (and an admin) sees the success fee and the payout; the buyer sees nulls there (D10).',
    auth: 'user',
    params: IdPath,
    status: 200,
    reply: InvoiceSchema,
    errors: [404],
  }),
  pdf: defineRoute({
    method: 'get',
    path: '/invoices/{id}/pdf',
    tag: 'invoices',
    summary: 'The invoice as a PDF download named after its number',
    description:
      "For the invoice's buyer, its seller or an admin; anyone else gets 404, as for an unknown invoice. The seller's and admin's copy " +
      "shows the success fee and payout; the buyer's leaves them out.",
    auth: 'user',
    params: IdPath,
    status: 200,
    reply: { binary: ['application/pdf'] },
    errors: [404],
    headers: { 'Content-Disposition': 'attachment; filename="INV-YYYY-NNNNNN.pdf"', 'Cache-Control': 'no-store (private)' },
  }),
  markPaid: defineRoute({
    method: 'patch',
    path: '/invoices/{id}/mark-paid',
    tag: 'invoices',
    summary: 'The seller records a payment made outside the platform',
    description: 'Pending invoices only (SPEC §4).',
    auth: 'user',
    params: IdPath,
    status: 200,
    reply: MarkPaidResponseSchema,
    errors: [400, 403, 404],
  }),
  transferStarted: defineRoute({
    method: 'post',
    path: '/invoices/{id}/transfer-started',
    tag: 'invoices',
    summary: "The seller marks the site's transfer started (funds held)",
    description:
      'Only the seller, while the funds are held (ADR 0039). A retry keeps the first time (200). 403 for the buyer, 409 in any other ' +
      'invoice status, with the status named.',
    auth: 'user',
    params: IdPath,
    status: 200,
    reply: InvoiceActionResponseSchema,
    errors: [403, 404, 409],
  }),
  transferReceived: defineRoute({
    method: 'post',
    path: '/invoices/{id}/transfer-received',
    tag: 'invoices',
    summary: 'The buyer confirms they have received the site',
    description:
      'Only the buyer, after the seller started the transfer, while the funds are held and no dispute is open (ADR 0039). A retry ' +
      'keeps the first time (200). 403 for the seller, 409 otherwise, saying what must happen first.',
    auth: 'user',
    params: IdPath,
    status: 200,
    reply: InvoiceActionResponseSchema,
    errors: [403, 404, 409],
  }),
  openDispute: defineRoute({
    method: 'post',
    path: '/invoices/{id}/dispute',
    tag: 'invoices',
    summary: 'The buyer disputes the transfer while the funds are held',
    description:
      'A reason from the fixed list and a message of 20 to 2000 characters (422 otherwise). The invoice becomes disputed and the ' +
      'seller is emailed; an admin releases or refunds the funds (ADR 0039). A retry while the dispute is open answers it (200); ' +
      '403 for the seller, 409 when no funds are held or their release has begun.',
    auth: 'user',
    params: IdPath,
    body: OpenDisputeRequestSchema,
    status: 200,
    reply: InvoiceActionResponseSchema,
    errors: [403, 404, 409],
  }),
  buyNow: defineRoute({
    method: 'post',
    path: '/listings/{id}/buy-now',
    tag: 'invoices',
    summary: "Buy a listing at its buy-now price; the answer says how to pay",
    description:
      'Below the direct-purchase limit only (D4). The answer sends the buyer to a hosted checkout, or to pay the invoice from the ' +
      'dashboard; payment_setup_failed means the sale stands but its payment could not be prepared (SPEC §4, §8). 403 while the ' +
      'buyer has not verified their email and the platform requires it (ADR 0037).',
    auth: 'user',
    params: IdPath,
    idempotent: true,
    status: 201,
    reply: BuyNowResponseSchema,
    errors: [400, 403, 404],
  }),
};

/** The buyer's card payments (SPEC §7, D11, D12, ADR 0020). */
export const PAYMENTS_ROUTES = {
  create: defineRoute({
    method: 'post',
    path: '/invoices/{id}/create-payment',
    tag: 'payments',
    summary: "Start the buyer's card payment of an invoice",
    description:
      'A payment already in progress is answered 409 with the SPEC §8 detail plus this answer\'s fields (existing: true), so the ' +
      'dialog can continue it. A payment whose last card was declined is handed back for a retry (200).',
    auth: 'user',
    params: IdPath,
    body: CreatePaymentRequestSchema,
    idempotent: true,
    status: 200,
    reply: CreatePaymentResponseSchema,
    errors: [400, 403, 404, 409],
    errorReplies: { 409: PaymentInProgressResponseSchema },
  }),
  checkoutSession: defineRoute({
    method: 'post',
    path: '/invoices/{id}/create-stripe-session',
    tag: 'payments',
    summary: "A hosted checkout page for the invoice's payment",
    description:
      "Only the invoice's buyer (403 for its seller or an admin, 404 for anyone else); 400 when the invoice cannot be paid or its funds " +
      "are already held, 409 once the sale was cancelled. The page is the sandbox's on this site, or Stripe's, and comes back to " +
      '/payment-success or /payment-cancel.',
    auth: 'user',
    params: IdPath,
    status: 200,
    reply: CheckoutSessionResponseSchema,
    errors: [400, 403, 404, 409],
  }),
  status: defineRoute({
    method: 'get',
    path: '/payment-intents/{id}/status',
    tag: 'payments',
    summary: "A payment's status, for the invoice's buyer, its seller or an admin",
    description:
      'Anyone else gets 404, as for an unknown payment. The status is as last recorded from the provider; `last_error` says why the last ' +
      'attempt failed.',
    auth: 'user',
    params: IdPath,
    status: 200,
    reply: PaymentIntentStatusSchema,
    errors: [404],
  }),
  sandboxConfirm: defineRoute({
    method: 'post',
    path: '/sandbox/payment-intents/{id}/confirm',
    tag: 'payments',
    summary: "Confirm a payment with the sandbox's card form (its stand-in for Stripe.js)",
    description: 'Test card numbers decide the outcome (D12); the number is never stored or logged. 404 when the provider is not the sandbox.',
    auth: 'user',
    params: IdPath,
    body: SandboxCardSchema,
    status: 200,
    reply: SandboxConfirmResultSchema,
    errors: [404],
  }),
  sandboxConfirmStep: defineRoute({
    method: 'post',
    path: '/sandbox/payment-intents/{id}/confirm-step',
    tag: 'payments',
    summary: "Complete a sandbox payment's confirmation step (test card 3184)",
    description:
      "Only the invoice's buyer with the payment's client secret; anything else, or a provider other than the sandbox, is 404. Answers " +
      "the payment as it stands after the step, or the provider's error.",
    auth: 'user',
    params: IdPath,
    body: SandboxConfirmStepSchema,
    status: 200,
    reply: SandboxConfirmResultSchema,
    errors: [404],
  }),
  sandboxCompleteCheckout: defineRoute({
    method: 'post',
    path: '/sandbox/checkout-sessions/{id}/complete',
    tag: 'payments',
    summary: "The sandbox's hosted checkout page submits the card; the answer says where to go next",
    description:
      "Only the invoice's buyer; 404 for anyone else, an unknown session, or when the provider is not the sandbox. Test card numbers " +
      "decide (an invalid number or a past expiry is 422), and a 3184 card's confirmation step is done at once. `redirect_url` is the " +
      'success page once the payment is authorised, else the cancel page.',
    auth: 'user',
    params: z.object({ id: CheckoutSessionIdSchema }),
    body: SandboxCheckoutCardSchema,
    status: 200,
    reply: SandboxCheckoutResultSchema,
    errors: [404],
  }),
};

/** The admin Payments, Transactions and Analytics tabs (SPEC §2, §3, D11, D20, ADR 0021): real admins only. */
export const ADMIN_BILLING_ROUTES = {
  transactions: defineRoute({
    method: 'get',
    path: '/admin/transactions',
    tag: 'admin-billing',
    summary: 'Invoices as transactions, newest first (1000), optionally one status group',
    description:
      '`status` picks one group: completed is a paid invoice; failed a failed or canceled payment, or a cancelled sale; pending everything ' +
      "else, held and disputed funds included. Each row names the buyer and seller and gives the status of the invoice's latest card payment.",
    auth: 'admin',
    query: AdminTransactionsQuerySchema,
    status: 200,
    reply: AdminTransactionsResponseSchema,
  }),
  invoiceAnalytics: defineRoute({
    method: 'get',
    path: '/admin/invoice-analytics',
    tag: 'admin-billing',
    summary: 'Invoice counts, money, rates, aging, top customers and 30 days of paid revenue',
    description:
      'Computed over every invoice at the time of the call, in dollars. Pending counts invoices neither paid nor overdue; aging sorts ' +
      'unpaid invoices by whole days since creation; the top 5 customers are buyers by paid amount; revenue_over_time covers the last 30 ' +
      'UTC days, oldest first.',
    auth: 'admin',
    status: 200,
    reply: InvoiceAnalyticsSchema,
  }),
  paymentIntents: defineRoute({
    method: 'get',
    path: '/admin/payment-intents',
    tag: 'admin-billing',
    summary: 'Every card payment, with the capture deadline of held funds (D11)',
    description:
      'The latest 1000, newest first. A hold must be captured within 7 days of its authorisation (`expires_soon`: under 48 hours left); ' +
      "each row also carries the invoice's transfer checklist, its dispute (`dispute_urgent` near or past the deadline), escrow and payout.",
    auth: 'admin',
    status: 200,
    reply: AdminPaymentIntentsResponseSchema,
  }),
  capture: defineRoute({
    method: 'post',
    path: '/admin/payment-intents/{id}/capture',
    tag: 'admin-billing',
    summary: 'Release Funds: capture a held payment; its invoice is paid',
    description: 'The full amount only. A disputed invoice is decided with resolve-dispute instead (409).',
    auth: 'admin',
    params: IdPath,
    body: CapturePaymentRequestSchema,
    idempotent: true,
    status: 200,
    reply: PaymentActionResponseSchema,
    errors: [400, 404, 409],
  }),
  resolveDispute: defineRoute({
    method: 'post',
    path: '/admin/invoices/{id}/resolve-dispute',
    tag: 'admin-billing',
    summary: "Decide a dispute: release the held funds to the seller or refund the buyer, with a note",
    description:
      'The note is required (10 to 1000 characters) and shown to both parties; the decision is audited (ADR 0032, 0039). The same ' +
      'decision again answers the dispute as it stands (200); another one after a decision, or no open dispute, is a 409.',
    auth: 'admin',
    params: IdPath,
    body: ResolveDisputeRequestSchema,
    status: 200,
    reply: InvoiceActionResponseSchema,
    errors: [400, 404, 409],
  }),
  refund: defineRoute({
    method: 'post',
    path: '/admin/payment-intents/{id}/refund',
    tag: 'admin-billing',
    summary: 'Refund: cancel an uncaptured hold, or refund a captured payment',
    description: 'The full amount only. A disputed invoice is decided with resolve-dispute instead (409).',
    auth: 'admin',
    params: IdPath,
    body: RefundPaymentRequestSchema,
    idempotent: true,
    status: 200,
    reply: PaymentActionResponseSchema,
    errors: [400, 404, 409],
  }),
};

/** Provider webhooks (ADR 0023). */
export const WEBHOOKS_ROUTES = {
  stripe: defineRoute({
    method: 'post',
    path: '/webhooks/stripe',
    tag: 'webhooks',
    summary: "Stripe's event notifications",
    description:
      "No login: Stripe's signature (the Stripe-Signature header, over the body's exact bytes) is the authentication. 400 on a " +
      'missing, bad or stale signature; 404 while the provider is the sandbox.',
    auth: 'public',
    rawBody: 'application/json',
    status: 200,
    reply: StripeWebhookResultSchema,
    errors: [400, 404, 413],
  }),
};
