import { defineRpc } from '../rpc';
import { EmptyRequestSchema } from '../common.schemas';
import {
  InvoiceLedgerMessageSchema,
  InvoiceLedgerSchema,
  LedgerOverviewSchema,
  PayoutAccountSchema,
  PayoutOnboardingSchema,
  ReconciliationResultSchema,
  SandboxOnboardingLinkMessageSchema,
  SandboxOnboardingLinkSchema,
  SandboxOnboardingMessageSchema,
  SandboxOnboardingResultSchema,
  SellerPayoutsSchema,
} from './payout.schemas';

/** billing-service's subjects of payouts and the ledger (D22), gathered into BILLING_RPC. */
export const PAYOUT_RPC = {
  payoutAccount: defineRpc('billing.payout_account.get', EmptyRequestSchema, PayoutAccountSchema),
  payoutOnboarding: defineRpc('billing.payout_account.onboarding', EmptyRequestSchema, PayoutOnboardingSchema),
  sandboxOnboardingLink: defineRpc('billing.payout_account.sandbox_link', SandboxOnboardingLinkMessageSchema, SandboxOnboardingLinkSchema),
  sandboxCompleteOnboarding: defineRpc('billing.payout_account.sandbox_complete', SandboxOnboardingMessageSchema, SandboxOnboardingResultSchema),
  sellerPayouts: defineRpc('billing.payouts.list', EmptyRequestSchema, SellerPayoutsSchema),
  adminLedger: defineRpc('billing.admin.ledger', EmptyRequestSchema, LedgerOverviewSchema),
  adminInvoiceLedger: defineRpc('billing.admin.ledger_invoice', InvoiceLedgerMessageSchema, InvoiceLedgerSchema),
  adminReconcile: defineRpc('billing.admin.ledger_reconcile', EmptyRequestSchema, ReconciliationResultSchema),
};
