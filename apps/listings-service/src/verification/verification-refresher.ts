import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { VerificationSource } from '@market/contracts';
import { FIGURES_CURRENT_FOR_MS, isStripeTestKey, monthlyNetRevenue, verifiedDateRange, verifiedMonthlyAverage, verifiedMonths } from '@market/domain';
import { withTimeout } from '@market/server-kit';
import { LISTINGS_CONFIG, type ListingsConfig } from '../listings.config';
import { CredentialSeal } from './credential-seal';
import { VerificationRepository, type ConnectionRow, type NewSnapshot } from './verification.repository';
import { ProviderRefused, ProviderUnavailable, REVENUE_READER, TRAFFIC_READER, type RevenueReader, type TrafficReader } from './providers/verification-sources.port';

/** What one read of a source gave: the snapshot to keep and, for Stripe, the newest charge's descriptor. */
export interface SourceRead {
  snapshot: Omit<NewSnapshot, 'listing_id'>;
  account_label: string | null;
}

/**
 * How a scheduled refresh ended. `gone`, `ended`, `not_live` and `revoked` end its schedule (the sweep schedules a
 * connection again once its listing is live); `superseded` (the seller connected again meanwhile) leaves it alone.
 */
export type RefreshOutcome = 'refreshed' | 'failing' | 'revoked' | 'gone' | 'ended' | 'not_live' | 'superseded';

// A whole refresh's time: many pages of a busy account, never the seller's wait (they are not waiting).
const REFRESH_BUDGET_MS = 120_000;
// The most charges one refresh keeps in memory: a year of 50,000 sales is past any site listed here.
const MAX_CHARGES = 50_000;
// A sold or cancelled listing's sources end: the site's accounts are the buyer's now (ADR 0084).
const ENDED = new Set(['sold', 'cancelled']);

/**
 * Reads a source's last 12 complete months through its provider port and keeps them as a dated snapshot (ADR 0084):
 * the daily refresh (and the first, at once after a connect). A provider that is slow or wrong leaves the last good
 * snapshot in place (`failing`); one that refuses the key or token revokes the connection.
 */
@Injectable()
export class VerificationRefresher {
  private readonly logger = new Logger('VerificationRefresher');

  constructor(
    private readonly repo: VerificationRepository,
    private readonly seal: CredentialSeal,
    @Inject(LISTINGS_CONFIG) private readonly config: Partial<ListingsConfig>,
    @Optional() @Inject(REVENUE_READER) readonly revenue: RevenueReader | null,
    @Optional() @Inject(TRAFFIC_READER) readonly traffic: TrafficReader | null,
  ) {}

  /** Stand-ins' figures are never real ones: TEST MODE with VERIFICATION_TEST_MODE or the sandbox (ADR 0084). */
  get testMode(): boolean {
    return this.config.VERIFICATION_TEST_MODE === true || this.config.VERIFICATION_SANDBOX === 'on';
  }

  /** Whether a source is set up here, and whether its figures are TEST MODE. */
  setUp(source: VerificationSource): { available: boolean; test_mode: boolean } {
    return { available: ((source === 'stripe' ? this.revenue : this.traffic) ?? null) !== null, test_mode: this.testMode };
  }

  /** The listings' card flags from their sources now (VerificationRepository.syncFlags). */
  syncFlags(listingIds: readonly string[], manager?: Parameters<VerificationRepository['syncFlags']>[3], now = new Date()) {
    return this.repo.syncFlags(listingIds, new Date(now.getTime() - FIGURES_CURRENT_FOR_MS), this.testMode, manager);
  }

  /**
   * Gives a GA4 refresh token back at Google when its connection goes (ADR 0084): at most a couple of seconds, and a
   * failure changes nothing here (the token is deleted here either way, and useless without our client's secret).
   */
  async revokeQuietly(refreshToken: string | null): Promise<void> {
    if (!refreshToken || !this.traffic) return;
    await withTimeout(this.traffic.revoke(refreshToken), 2_000, 'Google').catch((error: unknown) =>
      this.logger.warn(`A Google Analytics token was not revoked at Google (${(error as Error)?.message ?? 'no answer'}); it is deleted here`),
    );
  }

  /** The last 12 complete months of a Stripe account's net revenue. Throws ProviderRefused or ProviderUnavailable. */
  async readStripe(key: string, now: Date): Promise<SourceRead> {
    if (!this.revenue) throw new ProviderUnavailable('Stripe verification is not set up on this marketplace');
    const since = new Date(`${verifiedDateRange(now).from}T00:00:00.000Z`);
    const deadline = Date.now() + REFRESH_BUDGET_MS;
    const read = await this.bounded(this.revenue.charges(key, since, { deadline, maxCharges: MAX_CHARGES }), 'Stripe', REFRESH_BUDGET_MS + 1000);
    const { months, other_currency } = this.figures('Stripe', () => monthlyNetRevenue(read.charges, now));
    return {
      account_label: read.account_label,
      snapshot: {
        source: 'stripe',
        // A Stripe test-mode key reads test-mode charges: never real revenue (ADR 0084).
        test_mode: this.testMode || isStripeTestKey(key),
        months: months.map((m) => ({ month: m.month, value: m.value })),
        monthly_average: verifiedMonthlyAverage(months),
        monthly_average_users: null,
        other_currency_charges: other_currency,
      },
    };
  }

  /** The last 12 complete months of a GA4 property's sessions and users. Throws ProviderRefused or ProviderUnavailable. */
  async readGa4(refreshToken: string, propertyId: string, now: Date): Promise<SourceRead> {
    if (!this.traffic) throw new ProviderUnavailable('Google Analytics verification is not set up on this marketplace');
    const range = verifiedDateRange(now);
    const rows = await this.bounded(this.traffic.monthly(refreshToken, propertyId, range.from, range.to), 'Google Analytics', this.timeoutMs() * 2 + 500);
    for (const row of rows) {
      if (!Number.isSafeInteger(row.users) || !Number.isSafeInteger(row.sessions) || row.users < 0 || row.sessions < 0) {
        throw new ProviderUnavailable('Google Analytics answered figures that are not whole counts');
      }
    }
    const byMonth = new Map(rows.map((row) => [row.month, row]));
    const months = verifiedMonths(now).map((month) => ({ month, value: byMonth.get(month)?.sessions ?? 0, users: byMonth.get(month)?.users ?? 0 }));
    return {
      account_label: null,
      snapshot: {
        source: 'ga4',
        test_mode: this.testMode,
        months,
        monthly_average: verifiedMonthlyAverage(months),
        monthly_average_users: verifiedMonthlyAverage(months.map((m) => ({ month: m.month, value: m.users }))),
        other_currency_charges: 0,
      },
    };
  }

  /**
   * One refresh of one connection. Writes only while the credential it read with is still the stored one (a seller who
   * disconnected or connected again meanwhile wins), with the snapshot and the listing's flags in one transaction.
   */
  async refresh(listingId: string, source: VerificationSource, now = new Date()): Promise<RefreshOutcome> {
    const [connection, status] = await Promise.all([this.repo.connection(listingId, source), this.repo.statusOf(listingId)]);
    if (!connection || status === null) return 'gone';
    // Refused, or ended with its listing: only the seller's reconnect starts it again.
    if (connection.state === 'revoked' || connection.credential.length === 0) return 'revoked';
    if (ENDED.has(status)) {
      await this.repo.transaction(async (manager) => {
        await this.repo.retireEnded(listingId, manager);
        await this.syncFlags([listingId], manager, now);
      });
      return 'ended';
    }
    if (status !== 'active') return 'not_live';
    const secret = this.seal.open(connection.credential, listingId, source);
    // Not the provider's refusal: a key this replica cannot open (a rotation under way) keeps its schedule and figures.
    if (secret === null) return this.fail(connection, 'failing', 'The stored key could not be opened on this server; it is tried again at the next refresh.', now);
    let read: SourceRead;
    try {
      read = source === 'stripe' ? await this.readStripe(secret, now) : await this.readGa4(secret, connection.property_id ?? '', now);
    } catch (error) {
      // Only the provider refusing the key or token ends it; anything else it says is a bad day (ADR 0084).
      if (error instanceof ProviderRefused) return this.fail(connection, error.kind === 'invalid' ? 'failing' : 'revoked', error.message, now);
      if (error instanceof ProviderUnavailable) return this.fail(connection, 'failing', error.message, now);
      throw error;
    }
    return this.repo.transaction(async (manager) => {
      const current = await this.repo.connection(listingId, source, manager);
      if (!current) return 'gone' as const;
      // Sealed again since (a bus key rotation) is the same key; another key is a reconnect, which wins.
      const same = current.credential.equals(connection.credential) || this.seal.open(current.credential, listingId, source) === secret;
      if (!same || current.state === 'revoked') return 'superseded' as const;
      const resealed = this.seal.isCurrent(current.credential) ? null : this.seal.seal(secret, listingId, source);
      await this.repo.recordSuccess(listingId, source, read.account_label, resealed, manager);
      await this.repo.insertSnapshot({ listing_id: listingId, ...read.snapshot }, manager);
      await this.syncFlags([listingId], manager, now);
      return 'refreshed' as const;
    });
  }

  private async fail(connection: ConnectionRow, state: 'failing' | 'revoked', reason: string, now: Date): Promise<RefreshOutcome> {
    this.logger.warn(`Refresh of ${connection.source} for listing ${connection.listing_id} ${state === 'revoked' ? 'refused' : 'failed'}: ${reason}`);
    const since = new Date(now.getTime() - FIGURES_CURRENT_FOR_MS);
    const applied = await this.repo.recordFailure(connection.listing_id, connection.source, connection.credential, state, reason, since, this.testMode);
    return applied ? state : 'superseded';
  }

  // The domain refuses charges that are not whole, non-negative cents: a provider answering them is wrong, not us.
  private figures<T>(provider: string, work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof RangeError) throw new ProviderUnavailable(`${provider} answered amounts we could not read`);
      throw error;
    }
  }

  /** How long one request to a provider may take (VERIFICATION_TIMEOUT_MS). */
  timeoutMs(): number {
    return this.config.VERIFICATION_TIMEOUT_MS ?? 10_000;
  }

  // A read never outlasts its bound, whatever the SDK's own timeouts do.
  private bounded<T>(work: Promise<T>, provider: string, ms: number): Promise<T> {
    return withTimeout(work, ms, provider).catch((error: unknown) => {
      if (error instanceof ProviderRefused || error instanceof ProviderUnavailable) throw error;
      // Only the error's name: a provider's message might carry what the seller pasted.
      this.logger.warn(`${provider} read failed unexpectedly (${(error as Error)?.name ?? typeof error})`);
      throw new ProviderUnavailable(`${provider} did not answer in time or answered something unexpected`);
    });
  }
}
