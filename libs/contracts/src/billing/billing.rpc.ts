import { defineRpc } from '../rpc';
import { EmptyRequestSchema, IdRequestSchema } from '../common.schemas';
import { ListingIdRequestSchema } from '../bidding/bid.schemas';
import { PaymentsModeSchema } from './payments-mode.schemas';
import { CancelSaleRequestSchema } from './sale-cancellation.schemas';
import { TRANSFER_PROOF_RPC } from './transfer-proof.rpc';
import { PAYMENT_METHOD_RPC } from './payment-method.rpc';
import { PAYOUT_RPC } from './payout.rpc';
import { AdminTransactionsQuerySchema, AdminTransactionsResponseSchema, InvoiceAnalyticsSchema } from './admin-billing.schemas';
import {
  BillingStatsSchema,
  BuyNowResponseSchema,
  InvoicePdfFileSchema,
  InvoiceSchema,
  InvoicesResponseSchema,
  InvoiceActionResponseSchema,
  MarkPaidResponseSchema,
} from './invoice.schemas';
import { OpenDisputeMessageSchema, ResolveDisputeMessageSchema } from './transfer.schemas';
import {
  AdminPaymentIntentsResponseSchema,
  CapturePaymentMessageSchema,
  CheckoutSessionResponseSchema,
  CreatePaymentMessageSchema,
  CreatePaymentResponseSchema,
  PaymentActionResponseSchema,
  PaymentIntentStatusSchema,
  RefundPaymentMessageSchema,
  SandboxCheckoutMessageSchema,
  SandboxCheckoutResultSchema,
  SandboxConfirmMessageSchema,
  SandboxConfirmResultSchema,
  SandboxConfirmStepMessageSchema,
  StripeWebhookMessageSchema,
  StripeWebhookResultSchema,
} from './payment.schemas';

/** billing-service's request subjects. */
export const BILLING_RPC = {
  /** Paid invoices for the admin overview; admin-service asks. */
  stats: defineRpc('billing.stats', EmptyRequestSchema, BillingStatsSchema, { internal: true }),
  /** POST /api/listings/{id}/buy-now: the sale through bidding, then its invoice and payment (D4). */
  buyNow: defineRpc('billing.buy_now', ListingIdRequestSchema, BuyNowResponseSchema),
  listInvoices: defineRpc('billing.invoices.list', EmptyRequestSchema, InvoicesResponseSchema),
  getInvoice: defineRpc('billing.invoices.get', IdRequestSchema, InvoiceSchema),
  /** The PDF's name and bytes (base64); the gateway streams it. */
  invoicePdf: defineRpc('billing.invoices.pdf', IdRequestSchema, InvoicePdfFileSchema),
  markPaid: defineRpc('billing.invoices.mark_paid', IdRequestSchema, MarkPaidResponseSchema),
  /** The transfer checklist and disputes (ADR 0039). */
  markTransferStarted: defineRpc('billing.invoices.transfer_started', IdRequestSchema, InvoiceActionResponseSchema),
  confirmReceived: defineRpc('billing.invoices.transfer_received', IdRequestSchema, InvoiceActionResponseSchema),
  openDispute: defineRpc('billing.invoices.open_dispute', OpenDisputeMessageSchema, InvoiceActionResponseSchema),
  adminResolveDispute: defineRpc('billing.disputes.admin_resolve', ResolveDisputeMessageSchema, InvoiceActionResponseSchema),
  /** Admin Transactions and Analytics tabs (ADR 0021). */
  adminTransactions: defineRpc('billing.admin.transactions', AdminTransactionsQuerySchema, AdminTransactionsResponseSchema),
  adminInvoiceAnalytics: defineRpc('billing.admin.invoice_analytics', EmptyRequestSchema, InvoiceAnalyticsSchema),
  /** Card payments (D11, D12, ADR 0020). `existing: true` is answered 409 by the gateway. */
  createPayment: defineRpc('billing.payments.create', CreatePaymentMessageSchema, CreatePaymentResponseSchema),
  createCheckoutSession: defineRpc('billing.payments.checkout_session', IdRequestSchema, CheckoutSessionResponseSchema),
  paymentStatus: defineRpc('billing.payments.status', IdRequestSchema, PaymentIntentStatusSchema),
  sandboxConfirm: defineRpc('billing.payments.sandbox_confirm', SandboxConfirmMessageSchema, SandboxConfirmResultSchema),
  sandboxConfirmStep: defineRpc('billing.payments.sandbox_confirm_step', SandboxConfirmStepMessageSchema, SandboxConfirmResultSchema),
  sandboxCompleteCheckout: defineRpc('billing.payments.sandbox_complete_checkout', SandboxCheckoutMessageSchema, SandboxCheckoutResultSchema),
  adminListPayments: defineRpc('billing.payments.admin_list', EmptyRequestSchema, AdminPaymentIntentsResponseSchema),
  adminCapture: defineRpc('billing.payments.admin_capture', CapturePaymentMessageSchema, PaymentActionResponseSchema),
  adminRefund: defineRpc('billing.payments.admin_refund', RefundPaymentMessageSchema, PaymentActionResponseSchema),
  /** Which provider runs and whether it is the sandbox (GET /api/site, ADR 0033); anyone may ask. */
  paymentsMode: defineRpc('billing.payments.mode', EmptyRequestSchema, PaymentsModeSchema),
  /** A Stripe webhook's exact bytes and signature, verified by billing (ADR 0023). */
  /** A real admin cancels an unpaid sale (ADR 0043). */
  cancelSale: defineRpc('billing.admin.cancel_sale', CancelSaleRequestSchema, InvoiceActionResponseSchema),
  stripeWebhook: defineRpc('billing.payments.stripe_webhook', StripeWebhookMessageSchema, StripeWebhookResultSchema),
  ...TRANSFER_PROOF_RPC,
  ...PAYMENT_METHOD_RPC,
  ...PAYOUT_RPC,
};
