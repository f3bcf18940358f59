import type { PayoutAccountStatus } from '@market/domain';

/** The Payouts tab's empty state (D22). */
export const NO_SALES_TEXT =
  'No sales yet. When a buyer pays for one of your sites, its money shows here while it is held in escrow and when it reaches you.';

/** What the provider's requirement names (Stripe's, e.g. `individual.dob.day`) mean, by the part that says what. */
const REQUIREMENT_LABELS: ReadonlyArray<[RegExp, string]> = [
  [/^external_account$/, 'Bank account for payouts'],
  [/^tos_acceptance\./, 'Acceptance of the provider\u2019s terms'],
  [/^business_type$/, 'Business type'],
  [/^business_profile\.url$/, 'Business website'],
  [/^business_profile\.mcc$/, 'Business category'],
  [/^business_profile\.product_description$/, 'Description of what you sell'],
  [/(^|\.)dob(\.|$)/, 'Date of birth'],
  [/(^|\.)address(\.|$)/, 'Address'],
  [/(^|\.)(first_name|last_name)$/, 'Legal name'],
  [/(^|\.)email$/, 'Email address'],
  [/(^|\.)phone$/, 'Phone number'],
  [/(^|\.)ssn_last_4$/, 'Last 4 digits of your Social Security number'],
  [/(^|\.)(id_number|personal_id_number)$/, 'Government ID number'],
  [/(^|\.)tax_id$/, 'Tax ID'],
  [/(^|\.)name$/, 'Name'],
  [/verification\.additional_document/, 'Proof-of-address document'],
  [/verification\.document/, 'Identity document'],
];

/** Parts of a name that only say which piece of a field is missing: the field before them names it. */
const FIELD_PIECES = new Set(['day', 'month', 'year', 'line1', 'line2', 'city', 'postal_code', 'state', 'country', 'front', 'back']);

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** Who a requirement is about, from its first part: the seller themselves, their company, or a person of it. */
function ownerOf(name: string): { rest: string; prefix: (label: string) => string } {
  const [first, ...rest] = name.split('.');
  const tail = rest.join('.');
  if (first === 'individual') return { rest: tail, prefix: (label) => label };
  if (first === 'company') return { rest: tail, prefix: (label) => `Company ${lowerFirst(label)}` };
  if (first === 'representative' || /^person_/.test(first)) return { rest: tail, prefix: (label) => `Representative\u2019s ${lowerFirst(label)}` };
  return { rest: name, prefix: (label) => label };
}

/**
 * A provider requirement in words for the seller: `individual.dob.day` is "Date of birth", `external_account` "Bank
 * account for payouts"; a name this map does not know reads as its last meaningful part ("Political exposure").
 */
export function requirementLabel(name: string): string {
  const { rest, prefix } = ownerOf(name.trim());
  const known = REQUIREMENT_LABELS.find(([pattern]) => pattern.test(rest));
  if (known) return prefix(known[1]);
  const parts = rest.split('.').filter(Boolean);
  while (parts.length > 1 && FIELD_PIECES.has(parts[parts.length - 1])) parts.pop();
  const last = parts[parts.length - 1] ?? name;
  return prefix(capitalize(last.replace(/_/g, ' ')));
}

/** The requirements as a short list: each in words, once (a date of birth's day, month and year are one line). */
export function requirementsList(names: readonly string[]): string[] {
  return [...new Set(names.map(requirementLabel))];
}

/** The one button the account section offers, or null while the provider verifies or payouts are on. */
export function accountAction(status: PayoutAccountStatus): string | null {
  switch (status) {
    case 'not_started':
      return 'Set up payouts';
    case 'details_needed':
      return 'Continue setup';
    case 'restricted':
      return 'Update details';
    default:
      return null;
  }
}

/** Why the seller came back from the provider's onboarding (`?onboarding=`): the link expired, or they finished it. */
export type OnboardingReturn = 'refresh' | 'return';

/** The `onboarding` query value, when it is one the tab knows. */
export function onboardingReturnOf(value: string | null): OnboardingReturn | null {
  return value === 'refresh' || value === 'return' ? value : null;
}

/** What the account section says on coming back from the provider, by why and whether a button is offered. */
export function onboardingNotice(why: OnboardingReturn, hasAction: boolean): { tone: 'warning' | 'success'; text: string } {
  if (why === 'refresh') {
    return {
      tone: 'warning',
      text: `That setup link expired before you finished (the provider's links last only a few minutes).${hasAction ? ' Nothing is lost: continue where you left off with the button below.' : ''}`,
    };
  }
  return { tone: 'success', text: 'Thank you: the payout provider received your details.' };
}

/** A day as the viewer's locale writes it; a dash when there is none, the raw text when it is not a date. */
export function formatDay(iso: string | null, locale?: string): string {
  if (!iso) return '\u2014';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(locale, { dateStyle: 'medium' });
}
