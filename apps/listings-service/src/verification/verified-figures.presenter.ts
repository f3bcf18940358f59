import type { ListingVerificationDto, VerificationConnectionDto, VerificationSource, VerifiedRevenueDto, VerifiedTrafficDto } from '@market/contracts';
import { figureState, isClaimInflated } from '@market/domain';
import type { ConnectionRow, SnapshotRow } from './verification.repository';

/** What the buyer-facing figures compare against: the listing's claims (monthly revenue in whole dollars). */
export interface ClaimedFigures {
  monthly_revenue: number;
  monthly_traffic: number;
}

/** A listing's verified revenue for buyers: null while no source is connected or no snapshot was taken. */
export function presentRevenue(connection: ConnectionRow | undefined, snapshot: SnapshotRow | undefined, claims: ClaimedFigures, now: Date): VerifiedRevenueDto | null {
  if (!connection || !snapshot) return null;
  // Claims are whole dollars and verified revenue whole cents: compared in cents, in whole numbers (D24).
  const claimedCents = claims.monthly_revenue * 100;
  return {
    state: figureState(connection.state, snapshot.taken_at, now),
    test_mode: snapshot.test_mode,
    verified_at: snapshot.taken_at.toISOString(),
    // A connected account with nothing in 12 months verifies zero: any claim above it is flagged.
    inflated: isClaimInflated(claimedCents, snapshot.monthly_average ?? 0),
    monthly_average_cents: snapshot.monthly_average,
    claimed_cents: claimedCents,
    months: snapshot.months.map((m) => ({ month: m.month, cents: m.value })),
    other_currency_charges: snapshot.other_currency_charges,
    account_label: connection.account_label,
  };
}

/** A listing's verified traffic for buyers; the claim is held against sessions, the broader meaning of traffic (ADR 0084). */
export function presentTraffic(connection: ConnectionRow | undefined, snapshot: SnapshotRow | undefined, claims: ClaimedFigures, now: Date): VerifiedTrafficDto | null {
  if (!connection || !snapshot || connection.property_id === null) return null;
  return {
    state: figureState(connection.state, snapshot.taken_at, now),
    test_mode: snapshot.test_mode,
    verified_at: snapshot.taken_at.toISOString(),
    inflated: isClaimInflated(claims.monthly_traffic, snapshot.monthly_average ?? 0),
    monthly_average_sessions: snapshot.monthly_average,
    monthly_average_users: snapshot.monthly_average_users,
    claimed: claims.monthly_traffic,
    months: snapshot.months.map((m) => ({ month: m.month, sessions: m.value, users: m.users ?? 0 })),
    property_id: connection.property_id,
  };
}

/** Both figures of one listing from its connections and newest snapshots. */
export function presentVerification(connections: readonly ConnectionRow[], snapshots: readonly SnapshotRow[], claims: ClaimedFigures, now: Date): ListingVerificationDto {
  const connection = (source: VerificationSource) => connections.find((c) => c.source === source);
  const snapshot = (source: VerificationSource) => snapshots.find((s) => s.source === source);
  return {
    revenue: presentRevenue(connection('stripe'), snapshot('stripe'), claims, now),
    traffic: presentTraffic(connection('ga4'), snapshot('ga4'), claims, now),
  };
}

/** One source's connection as its seller sees it: never the credential. */
export function presentConnection(
  source: VerificationSource,
  setUp: { available: boolean; test_mode: boolean },
  connection: ConnectionRow | undefined,
  snapshot: SnapshotRow | undefined,
): VerificationConnectionDto {
  return {
    source,
    available: setUp.available,
    test_mode: setUp.test_mode,
    connection: connection
      ? {
          state: connection.state,
          connected_at: connection.connected_at.toISOString(),
          account_label: connection.account_label,
          property_id: connection.property_id,
          last_attempt_at: connection.last_attempt_at?.toISOString() ?? null,
          last_error: connection.last_error,
          verified_at: snapshot?.taken_at.toISOString() ?? null,
        }
      : null,
  };
}
