// The buying hold's rule (buyingHoldOf in libs/domain, ADR 0043) as SQL, for the reads that find holds in bulk: a batch
// of bids (bids/bid-batch.repository) and the admin's list (buyer-strikes.repository). A rule, not a repository: any
// sub-domain may use it.

/**
 * A strike that counts toward a hold at `now` (the rule of buyingOnHold in SQL): not lifted, struck at or before `now`
 * and within the last `days` days. Arguments are parameter placeholders (`'$2'`).
 */
export function countingStrike(now: string, days: string): string {
  return `lifted_at IS NULL AND struck_at <= ${now} AND struck_at > ${now}::timestamptz - make_interval(days => ${days}::int)`;
}
