import { PAYOUT_ACCOUNT_STATUSES } from '@market/domain';
import { accountAction, formatDay, onboardingNotice, onboardingReturnOf, requirementLabel, requirementsList } from './payouts';

describe('requirementLabel (D22)', () => {
  it.each([
    ['individual.dob.day', 'Date of birth'],
    ['individual.dob.year', 'Date of birth'],
    ['individual.first_name', 'Legal name'],
    ['individual.address.postal_code', 'Address'],
    ['individual.verification.document', 'Identity document'],
    ['individual.verification.additional_document', 'Proof-of-address document'],
    ['individual.ssn_last_4', 'Last 4 digits of your Social Security number'],
    ['individual.id_number', 'Government ID number'],
    ['external_account', 'Bank account for payouts'],
    ['tos_acceptance.date', 'Acceptance of the provider\u2019s terms'],
    ['tos_acceptance.ip', 'Acceptance of the provider\u2019s terms'],
    ['business_profile.url', 'Business website'],
    ['business_profile.mcc', 'Business category'],
    ['company.tax_id', 'Company tax ID'],
    ['company.address.city', 'Company address'],
    ['representative.dob.month', 'Representative\u2019s date of birth'],
    ['person_1AbC.verification.document', 'Representative\u2019s identity document'],
  ])('%s reads "%s"', (name, label) => {
    expect(requirementLabel(name)).toBe(label);
  });

  it('reads a name it does not know as its last meaningful part', () => {
    expect(requirementLabel('individual.political_exposure')).toBe('Political exposure');
    expect(requirementLabel('settings.payments.statement_descriptor')).toBe('Statement descriptor');
    expect(requirementLabel('individual.full_name_aliases.day')).toBe('Full name aliases');
    expect(requirementLabel('something')).toBe('Something');
  });
});

describe('requirementsList', () => {
  it('lists each requirement once, in the provider\u2019s order', () => {
    expect(requirementsList(['external_account', 'individual.dob.day', 'individual.dob.month', 'individual.first_name', 'individual.last_name', 'tos_acceptance.date'])).toEqual([
      'Bank account for payouts',
      'Date of birth',
      'Legal name',
      'Acceptance of the provider\u2019s terms',
    ]);
  });

  it('is empty when nothing is due', () => {
    expect(requirementsList([])).toEqual([]);
  });
});

describe('accountAction', () => {
  it('offers one button when the seller must act, none while the provider verifies or payouts are on', () => {
    expect(PAYOUT_ACCOUNT_STATUSES.map((status) => [status, accountAction(status)])).toEqual([
      ['not_started', 'Set up payouts'],
      ['details_needed', 'Continue setup'],
      ['pending_verification', null],
      ['enabled', null],
      ['restricted', 'Update details'],
    ]);
  });
});

describe('onboarding return', () => {
  it('knows refresh and return, nothing else', () => {
    expect(onboardingReturnOf('refresh')).toBe('refresh');
    expect(onboardingReturnOf('return')).toBe('return');
    expect(onboardingReturnOf('done')).toBeNull();
    expect(onboardingReturnOf(null)).toBeNull();
  });

  it('says an expired link expired, and points at the button only when there is one', () => {
    const withButton = onboardingNotice('refresh', true);
    expect(withButton.tone).toBe('warning');
    expect(withButton.text).toContain('expired');
    expect(withButton.text).toContain('button below');
    expect(onboardingNotice('refresh', false).text).not.toContain('button below');
  });

  it('thanks the seller on return', () => {
    expect(onboardingNotice('return', false)).toEqual({ tone: 'success', text: 'Thank you: the payout provider received your details.' });
  });
});

describe('formatDay', () => {
  it('writes a day, a dash for none, and keeps text that is not a date', () => {
    expect(formatDay('2026-11-22T12:00:00Z', 'en-US')).toBe('Nov 22, 2026');
    expect(formatDay(null)).toBe('\u2014');
    expect(formatDay('soon')).toBe('soon');
  });
});
