/**
 * Where a seller stands with the provider's payout onboarding (D22): no account yet, details still asked for, the
 * provider verifying what was sent, able to take payouts, or restricted (the provider refuses payouts until support
 * or the seller acts).
 */
export const PAYOUT_ACCOUNT_STATUSES = ['not_started', 'details_needed', 'pending_verification', 'enabled', 'restricted'] as const;
export type PayoutAccountStatus = (typeof PAYOUT_ACCOUNT_STATUSES)[number];

/** What a provider says of a connected account (Stripe's fields; the sandbox keeps the same). */
export interface PayoutAccountFacts {
  details_submitted: boolean;
  payouts_enabled: boolean;
  currently_due: readonly string[];
  past_due: readonly string[];
  pending_verification: readonly string[];
  /** Stripe's `requirements.disabled_reason`: `rejected.*`, `requirements.past_due`, `requirements.pending_verification`, ... */
  disabled_reason: string | null;
}

/**
 * The account's status from the provider's facts, or `not_started` with none. A rejected account is restricted; payouts
 * on is enabled (later requirements are listed as due but do not stop it); details not yet submitted need the seller
 * (a new account's requirements are already "past due" at Stripe: that is not a restriction); a submitted account whose
 * requirements went past due with payouts off is restricted; details still due need the seller; the rest waits on the
 * provider's verification.
 */
export function payoutAccountStatusOf(facts: PayoutAccountFacts | null): PayoutAccountStatus {
  if (!facts) return 'not_started';
  const reason = facts.disabled_reason ?? '';
  if (reason.startsWith('rejected') || reason === 'listed' || reason === 'platform_paused') return 'restricted';
  if (facts.payouts_enabled) return 'enabled';
  if (!facts.details_submitted) return 'details_needed';
  if (facts.past_due.length > 0 || reason === 'requirements.past_due') return 'restricted';
  if (facts.currently_due.length > 0) return 'details_needed';
  return 'pending_verification';
}

/** What the provider still asks for, past due first, each once. */
export function requirementsDue(facts: PayoutAccountFacts | null): string[] {
  if (!facts) return [];
  return [...new Set([...facts.past_due, ...facts.currently_due])];
}

/** True when a payout may be sent to the account now. */
export function canReceivePayouts(status: PayoutAccountStatus): boolean {
  return status === 'enabled';
}

/**
 * A release's answer by the seller's account (D22): sent now, waiting until the account can take payouts (the seller is
 * told), or refused while the provider restricts it (the money stays held and an admin is told why).
 */
export function releaseByAccount(status: PayoutAccountStatus): 'send' | 'wait' | 'refuse' {
  if (status === 'enabled') return 'send';
  if (status === 'restricted') return 'refuse';
  return 'wait';
}

/** A payout's life: decided and waiting for the seller's account, to be sent (or being retried), sent, or reversed. */
export const PAYOUT_STATUSES = ['waiting_for_account', 'pending', 'paid', 'reversed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** The seller's next step, in one sentence, for the Payouts section. */
export function payoutAccountNextStep(status: PayoutAccountStatus): string {
  switch (status) {
    case 'not_started':
      return 'Set up payouts so the money from your sales can reach your bank account.';
    case 'details_needed':
      return 'Finish your payout details: the provider still needs some information before it can pay you.';
    case 'pending_verification':
      return 'Your details are being verified. Nothing to do for now; payouts start once they are checked.';
    case 'enabled':
      return 'Payouts are on: released funds are sent to your account.';
    case 'restricted':
      return 'Payouts to your account are restricted by the provider. Update your details or contact support.';
  }
}
