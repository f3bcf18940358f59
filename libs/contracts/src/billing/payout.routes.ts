import { z } from 'zod';
import { defineRoute } from '../http/define-route';
import { UuidSchema } from '../common.schemas';
import {
  InvoiceLedgerSchema,
  LedgerOverviewSchema,
  OnboardingLinkIdSchema,
  PayoutAccountSchema,
  PayoutOnboardingSchema,
  ReconciliationResultSchema,
  SandboxOnboardingLinkSchema,
  SandboxOnboardingRequestSchema,
  SandboxOnboardingResultSchema,
  SellerPayoutsSchema,
} from './payout.schemas';

/** A seller's payout account and payouts (D22). */
export const PAYOUT_ROUTES = {
  account: defineRoute({
    method: 'get',
    path: '/user/payout-account',
    tag: 'payouts',
    summary: 'Your payout account: its status with the provider and what it still asks for',
    auth: 'user',
    status: 200,
    reply: PayoutAccountSchema,
  }),
  onboarding: defineRoute({
    method: 'post',
    path: '/user/payout-account/onboarding',
    tag: 'payouts',
    summary: "A link to the provider's hosted onboarding, where you give the details payouts need",
    description:
      'Stripe Connect onboarding (an Express account and an Account Link), or the sandbox\'s TEST MODE page. Identity checks are the ' +
      "provider's; the platform stores none of the details. A link expires; ask for a new one. 403 while an admin impersonates you.",
    auth: 'user',
    status: 200,
    reply: PayoutOnboardingSchema,
    errors: [403],
  }),
  payouts: defineRoute({
    method: 'get',
    path: '/user/payouts',
    tag: 'payouts',
    summary: 'Your sales\u2019 money: held in escrow, waiting for your account, being sent, or paid, with fees',
    auth: 'user',
    status: 200,
    reply: SellerPayoutsSchema,
  }),
  sandboxOnboardingLink: defineRoute({
    method: 'get',
    path: '/sandbox/payout-onboarding/{id}',
    tag: 'payouts',
    summary: "The sandbox's onboarding page: the link's account status (404 when the provider is not the sandbox)",
    auth: 'user',
    params: z.object({ id: OnboardingLinkIdSchema }),
    status: 200,
    reply: SandboxOnboardingLinkSchema,
    errors: [404],
  }),
  sandboxCompleteOnboarding: defineRoute({
    method: 'post',
    path: '/sandbox/payout-onboarding/{id}/complete',
    tag: 'payouts',
    summary: "Complete the sandbox's test onboarding (its stand-in for Stripe's hosted page)",
    description: 'Only the account\u2019s own seller; 404 for anyone else, an expired link, or when the provider is not the sandbox.',
    auth: 'user',
    params: z.object({ id: OnboardingLinkIdSchema }),
    body: SandboxOnboardingRequestSchema,
    status: 200,
    reply: SandboxOnboardingResultSchema,
    errors: [403, 404],
  }),
};

/** The admin Ledger tab (D22): real admins only. */
export const ADMIN_LEDGER_ROUTES = {
  overview: defineRoute({
    method: 'get',
    path: '/admin/ledger',
    tag: 'admin-billing',
    summary: 'The ledger: whether it balances, each account, and differences with the provider',
    auth: 'admin',
    status: 200,
    reply: LedgerOverviewSchema,
  }),
  invoice: defineRoute({
    method: 'get',
    path: '/admin/ledger/invoices/{id}',
    tag: 'admin-billing',
    summary: "An invoice's money trail: every ledger transaction it caused, oldest first",
    auth: 'admin',
    params: z.object({ id: UuidSchema }),
    status: 200,
    reply: InvoiceLedgerSchema,
    errors: [404],
  }),
  reconcile: defineRoute({
    method: 'post',
    path: '/admin/ledger/reconcile',
    tag: 'admin-billing',
    summary: "Reconcile the ledger with the provider's balance transactions now (it also runs daily)",
    auth: 'admin',
    status: 200,
    reply: ReconciliationResultSchema,
    errors: [503],
  }),
};
