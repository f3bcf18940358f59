import type { ListingVerificationDto } from '@market/contracts';
import { formatCents } from '../../lib/money';

/** One flag of the admin review: a claim more than 15% above what its source verified (D24). */
export interface ClaimFlag {
  kind: 'revenue' | 'traffic';
  label: string;
  /** The claim beside the verified figure, for the reviewer. */
  detail: string;
}

const count = (value: number | null) => (value ?? 0).toLocaleString('en-US');

/** The admin review's flags for a listing's verified figures: one per inflated claim, none without figures. */
export function claimFlags(verification: ListingVerificationDto | undefined): ClaimFlag[] {
  const flags: ClaimFlag[] = [];
  const revenue = verification?.revenue;
  const traffic = verification?.traffic;
  if (revenue?.inflated) {
    flags.push({
      kind: 'revenue',
      label: 'Claim above verified revenue',
      detail: `Claims ${formatCents(revenue.claimed_cents)}/mo; Stripe ${formatCents(revenue.monthly_average_cents ?? 0)}/mo`,
    });
  }
  if (traffic?.inflated) {
    flags.push({
      kind: 'traffic',
      label: 'Claim above verified traffic',
      detail: `Claims ${count(traffic.claimed)} visits/mo; GA4 ${count(traffic.monthly_average_sessions)} sessions/mo`,
    });
  }
  return flags;
}

/**
 * The statement descriptor of the newest charge the verified revenue is read from (ADR 0084: shown to the review). The
 * seller may set it per charge, so it describes the charges, never names the account; null when there is none.
 */
export function chargeDescriptorOf(verification: ListingVerificationDto | undefined): string | null {
  return verification?.revenue?.account_label ?? null;
}
