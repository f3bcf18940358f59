import { z } from 'zod';
import { LEDGER_ACCOUNTS, LEDGER_KINDS, PAYOUT_ACCOUNT_STATUSES, PAYOUT_STATUSES } from '@market/domain';
import { IsoDateTimeSchema, UuidSchema, WholeDollarsSchema, DollarsAndCentsSchema } from '../common.schemas';

export const PayoutAccountStatusSchema = z.enum(PAYOUT_ACCOUNT_STATUSES);

/** GET /api/user/payout-account: where the seller stands with the provider's payout onboarding (D22). */
export const PayoutAccountSchema = z.strictObject({
  status: PayoutAccountStatusSchema,
  /** What the provider still asks for (Stripe's requirement names), past due first; empty when nothing is due. */
  requirements_due: z.array(z.string()),
}).meta({ id: 'PayoutAccount' });
export type PayoutAccountDto = z.infer<typeof PayoutAccountSchema>;

/** POST /api/user/payout-account/onboarding: the provider's hosted onboarding page to send the seller to. */
export const PayoutOnboardingSchema = z.strictObject({ url: z.string() }).meta({ id: 'PayoutOnboarding' });
export type PayoutOnboardingDto = z.infer<typeof PayoutOnboardingSchema>;

/** The id of a sandbox onboarding link (its TEST MODE page, D12). */
export const OnboardingLinkIdSchema = z.string().regex(/^acctlink_sbx_[0-9a-f]{24}$/, 'Not a valid id').meta({ example: 'acctlink_sbx_5f0c2b7e3d4a4c1e9b8a6e2f' });

/**
 * POST /api/sandbox/payout-onboarding/{id}/complete: what the seller does on the sandbox's onboarding page. `complete`
 * is the page's one button; the other outcomes let a demo or a test show the provider's other answers.
 */
export const SandboxOnboardingRequestSchema = z
  .object({ outcome: z.enum(['complete', 'pending_verification', 'restricted']).default('complete') })
  .strict().meta({ id: 'SandboxOnboardingRequest' });
export type SandboxOnboardingRequest = z.infer<typeof SandboxOnboardingRequestSchema>;

/** The sandbox onboarding's answer: the account as it now stands, and where the page sends the seller back. */
export const SandboxOnboardingResultSchema = z.strictObject({ account: PayoutAccountSchema, return_url: z.string() }).meta({ id: 'SandboxOnboardingResult' });
export type SandboxOnboardingResult = z.infer<typeof SandboxOnboardingResultSchema>;

/** GET /api/sandbox/payout-onboarding/{id}: what the sandbox's onboarding page shows before the seller acts. */
export const SandboxOnboardingLinkSchema = z.strictObject({ id: z.string(), status: PayoutAccountStatusSchema, expired: z.boolean() }).meta({ id: 'SandboxOnboardingLink' });
export type SandboxOnboardingLink = z.infer<typeof SandboxOnboardingLinkSchema>;

/**
 * One sale's money as its seller sees it: held in escrow, waiting for the seller's payout account, being sent, paid,
 * or reversed by the provider. Dollars; the fee and net may carry cents (D10).
 */
export const SellerPayoutSchema = z.strictObject({
  invoice_id: z.uuid(),
  invoice_number: z.string(),
  website_title: z.string(),
  gross: WholeDollarsSchema,
  fee: DollarsAndCentsSchema,
  net: DollarsAndCentsSchema,
  status: z.enum(['in_escrow', ...PAYOUT_STATUSES]),
  /** When the sale's invoice was made (in escrow) or the release was decided (a payout). */
  created_at: IsoDateTimeSchema,
  /** When the transfer reached the seller's account; null until paid. */
  paid_at: IsoDateTimeSchema.nullable(),
});
export type SellerPayoutDto = z.infer<typeof SellerPayoutSchema>;

/**
 * GET /api/user/payouts: the seller's money in dollars (D22). `in_escrow` is the net of sales whose funds are held or
 * released but not yet sent; `paid_out` the net sent; `fees` the success fees deducted from what was released.
 */
export const SellerPayoutsSchema = z.strictObject({
  balance: z.strictObject({ in_escrow: DollarsAndCentsSchema, paid_out: DollarsAndCentsSchema, fees: DollarsAndCentsSchema }),
  payouts: z.array(SellerPayoutSchema),
}).meta({ id: 'SellerPayouts' });
export type SellerPayoutsDto = z.infer<typeof SellerPayoutsSchema>;

export const LedgerAccountSchema = z.enum(LEDGER_ACCOUNTS);

/** A difference the reconciliation found between the ledger and the provider's balance transactions. */
export const LedgerDifferenceSchema = z.strictObject({
  id: z.uuid(),
  /** The provider's balance transaction (or the ledger's reference to one). */
  provider_ref: z.string(),
  kind: z.enum(['missing_in_ledger', 'missing_at_provider', 'amount_differs']),
  ledger_amount: DollarsAndCentsSchema.nullable(),
  provider_amount: DollarsAndCentsSchema.nullable(),
  day: z.string(),
  found_at: IsoDateTimeSchema,
});
export type LedgerDifferenceDto = z.infer<typeof LedgerDifferenceSchema>;

/**
 * GET /api/admin/ledger: whether every ledger transaction balances, each account's balance in dollars (debits positive:
 * liabilities and revenue read negative), and how many differences with the provider are open.
 */
export const LedgerOverviewSchema = z.strictObject({
  balanced: z.boolean(),
  accounts: z.array(z.strictObject({ account: LedgerAccountSchema, label: z.string(), balance: DollarsAndCentsSchema })),
  unreconciled: z.number().int().min(0),
  /** When a reconciliation last finished; null before the first. */
  last_reconciled_at: IsoDateTimeSchema.nullable(),
  transactions: z.number().int().min(0),
  /** The open differences, newest first (at most 100). */
  differences: z.array(LedgerDifferenceSchema),
}).meta({ id: 'LedgerOverview' });
export type LedgerOverviewDto = z.infer<typeof LedgerOverviewSchema>;

/** One ledger transaction: its kind, when, the provider's balance transaction it matches, and its lines. */
export const LedgerTransactionSchema = z.strictObject({
  id: z.uuid(),
  kind: z.enum(LEDGER_KINDS),
  occurred_at: IsoDateTimeSchema,
  provider_ref: z.string().nullable(),
  entries: z.array(z.strictObject({ account: LedgerAccountSchema, party_id: z.uuid().nullable(), amount: DollarsAndCentsSchema })),
});
export type LedgerTransactionDto = z.infer<typeof LedgerTransactionSchema>;

/** GET /api/admin/ledger/invoices/{id}: an invoice's money trail, oldest first. */
export const InvoiceLedgerSchema = z.strictObject({ invoice_id: z.uuid(), invoice_number: z.string(), transactions: z.array(LedgerTransactionSchema) }).meta({ id: 'InvoiceLedger' });
export type InvoiceLedgerDto = z.infer<typeof InvoiceLedgerSchema>;

/** POST /api/admin/ledger/reconcile: what a reconciliation run compared and found. */
export const ReconciliationResultSchema = z.strictObject({
  days: z.number().int().min(0),
  provider_transactions: z.number().int().min(0),
  ledger_transactions: z.number().int().min(0),
  differences: z.number().int().min(0),
  unreconciled: z.number().int().min(0),
}).meta({ id: 'ReconciliationResult' });
export type ReconciliationResultDto = z.infer<typeof ReconciliationResultSchema>;

/** billing.payout_account.sandbox_complete: the link the path names and what the seller chose. */
export const SandboxOnboardingMessageSchema = z.object({ id: OnboardingLinkIdSchema, request: SandboxOnboardingRequestSchema }).strict();
/** billing.payout_account.sandbox_link: the link the path names. */
export const SandboxOnboardingLinkMessageSchema = z.object({ id: OnboardingLinkIdSchema }).strict();
/** billing.admin.ledger_invoice: the invoice the path names. */
export const InvoiceLedgerMessageSchema = z.object({ id: UuidSchema }).strict();
