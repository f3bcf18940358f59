import { canReceivePayouts, payoutAccountNextStep, payoutAccountStatusOf, PAYOUT_ACCOUNT_STATUSES, releaseByAccount, requirementsDue, type PayoutAccountFacts } from './payout.rules';

const facts = (over: Partial<PayoutAccountFacts> = {}): PayoutAccountFacts => ({
  details_submitted: false,
  payouts_enabled: false,
  currently_due: ['external_account', 'individual.dob.day'],
  past_due: [],
  pending_verification: [],
  disabled_reason: 'requirements.past_due',
  ...over,
});

describe('payout accounts (D22)', () => {
  it('reads the provider\u2019s facts as one status', () => {
    expect(payoutAccountStatusOf(null)).toBe('not_started');
    // A new account: nothing submitted, its requirements already "past due" as Stripe says of a new Express account.
    expect(payoutAccountStatusOf(facts())).toBe('details_needed');
    expect(payoutAccountStatusOf(facts({ disabled_reason: null }))).toBe('details_needed');
    expect(payoutAccountStatusOf(facts({ details_submitted: true, currently_due: ['individual.id_number'], disabled_reason: null }))).toBe('details_needed');
    const pending = facts({ details_submitted: true, currently_due: [], pending_verification: ['individual.verification.document'], disabled_reason: 'requirements.pending_verification' });
    expect(payoutAccountStatusOf(pending)).toBe('pending_verification');
    expect(payoutAccountStatusOf(facts({ details_submitted: true, payouts_enabled: true, currently_due: [], disabled_reason: null }))).toBe('enabled');
    // Later requirements listed as due do not stop an account that takes payouts now.
    expect(payoutAccountStatusOf(facts({ details_submitted: true, payouts_enabled: true, currently_due: ['tax_id'], disabled_reason: null }))).toBe('enabled');
    expect(payoutAccountStatusOf(facts({ details_submitted: true, past_due: ['external_account'], currently_due: ['external_account'] }))).toBe('restricted');
    expect(payoutAccountStatusOf(facts({ details_submitted: true, payouts_enabled: true, disabled_reason: 'rejected.fraud' }))).toBe('restricted');
  });

  it('lists what is due, past due first, once each', () => {
    expect(requirementsDue(null)).toEqual([]);
    expect(requirementsDue(facts({ past_due: ['external_account'], currently_due: ['external_account', 'tos_acceptance.date'] }))).toEqual([
      'external_account',
      'tos_acceptance.date',
    ]);
  });

  it.each(PAYOUT_ACCOUNT_STATUSES.map((s) => [s]))('%s: a release is sent, waits or is refused, and the seller has a next step', (status) => {
    expect(canReceivePayouts(status)).toBe(status === 'enabled');
    expect(releaseByAccount(status)).toBe(status === 'enabled' ? 'send' : status === 'restricted' ? 'refuse' : 'wait');
    expect(payoutAccountNextStep(status).length).toBeGreaterThan(20);
  });
});
