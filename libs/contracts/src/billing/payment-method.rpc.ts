import { defineRpc } from '../rpc';
import { EmptyRequestSchema } from '../common.schemas';
import {
  PaymentMethodConfirmResultSchema,
  PaymentMethodSetupSchema,
  PaymentMethodStatusSchema,
  PaymentMethodSyncSchema,
  SandboxSetupConfirmMessageSchema,
} from './payment-method.schemas';

/** billing-service's subjects of saved cards (ADR 0041), gathered into BILLING_RPC. */
export const PAYMENT_METHOD_RPC = {
  /** The caller's saved card; bidding-service asks it (with the bidder's token) before a large bid. */
  paymentMethodStatus: defineRpc('billing.payment_method_status', EmptyRequestSchema, PaymentMethodStatusSchema),
  /** Starts saving a card: a SetupIntent through the payment provider. */
  setupPaymentMethod: defineRpc('billing.payment_method.setup', EmptyRequestSchema, PaymentMethodSetupSchema),
  /** The sandbox's card form confirms the caller's SetupIntent (404 under Stripe). */
  sandboxConfirmSetup: defineRpc('billing.payment_method.sandbox_confirm', SandboxSetupConfirmMessageSchema, PaymentMethodConfirmResultSchema),
  /** Reads a SetupIntent Stripe.js confirmed and saves its card when it succeeded. */
  syncPaymentMethod: defineRpc('billing.payment_method.sync', PaymentMethodSyncSchema, PaymentMethodConfirmResultSchema),
};
