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
    description:
      '`not_started` until onboarding begins. An account not yet enabled is read again from the provider on each call (the stored status ' +
      'answers when the provider is slow); once it is enabled, the payouts waiting for it are sent.',
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
    description:
      'The latest 200 sales whose funds are held or released, newest first, in dollars (gross, success fee, net). The balance sums those ' +
      'rows: in escrow (held, or released but not yet sent), paid out, and the fees deducted from what was released.',
    auth: 'user',
    status: 200,
    reply: SellerPayoutsSchema,
  }),
  sandboxOnboardingLink: defineRoute({
    method: 'get',
    path: '/sandbox/payout-onboarding/{id}',
    tag: 'payouts',
    summary: "The sandbox's onboarding page: the link's account status (404 when the provider is not the sandbox)",
    description:
      "Only the account's own seller: 404 for anyone else, 403 while an admin impersonates them. `expired` means the link can no longer " +
      'be completed; ask for a new one.',
    auth: 'user',
    params: z.object({ id: OnboardingLinkIdSchema }),
    status: 200,
    reply: SandboxOnboardingLinkSchema,
    errors: [403, 404],
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
    description:
      'Balances in dollars, debits positive (liabilities and revenue read negative); `balanced` is true when every transaction balances ' +
      'and the accounts sum to zero. Open differences are listed newest first, at most 100; `unreconciled` counts them all.',
    auth: 'admin',
    status: 200,
    reply: LedgerOverviewSchema,
  }),
  invoice: defineRoute({
    method: 'get',
    path: '/admin/ledger/invoices/{id}',
    tag: 'admin-billing',
    summary: "An invoice's money trail: every ledger transaction it caused, oldest first",
    description:
      "Each transaction lists its lines in dollars (account, party, amount) and the provider's balance transaction it matches. An unknown " +
      'invoice is 404; one whose money has not moved yet answers an empty list.',
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
    description:
      'Compares the last RECONCILE_WINDOW_DAYS days (35 by default), up to a few minutes ago: a transaction on one side only, or with ' +
      'another amount, is recorded as a difference until a later run finds it matched. 503 when the provider or the database did not ' +
      'answer, or a run is already under way elsewhere.',
    auth: 'admin',
    status: 200,
    reply: ReconciliationResultSchema,
    errors: [503],
  }),
};
