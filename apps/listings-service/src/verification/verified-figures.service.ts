import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { randomBytes } from 'node:crypto';
import type { Actor, ConnectStripe, ListingDto, VerificationConnectionsDto, VerificationSource } from '@market/contracts';
import { VERIFICATION_SOURCES } from '@market/contracts';
import { badRequest, conflict, currentDeadline, requireActor, unavailable, withTimeout } from '@market/server-kit';
import { isStripeTestKey, verifiedMonths } from '@market/domain';
import { ListingsRepository, type ListingRecord } from '../listings/listings.repository';
import { CredentialSeal } from './credential-seal';
import { VerificationRepository } from './verification.repository';
import { VerificationRefresher } from './verification-refresher';
import { VerificationRefreshJobs } from './verification-refresh.jobs';
import { authorizeConnect, authorizeConnectionsRead } from './verification.policy';
import { presentConnection, presentVerification } from './verified-figures.presenter';
import { ProviderRefused, ProviderUnavailable } from './providers/verification-sources.port';

// A consent left half-way is dead after this long (ADR 0084).
const CONSENT_TTL_MS = 15 * 60_000;
const BAD_STATE = 'This Google consent was not started here by you, was used already, or expired. Start again from your listing.';
// Answered before the caller's own deadline, so a connect that answers 503 has kept nothing (the gateway gives up at its own).
const DEADLINE_MARGIN_MS = 300;

/**
 * Sellers connect their site's revenue and traffic sources read-only, and everyone reads the verified figures (D24,
 * ADR 0084). Keys and tokens are checked with a first read before they are kept, sealed, and never returned.
 */
@Injectable()
export class VerifiedFiguresService {
  constructor(
    private readonly listings: ListingsRepository,
    private readonly repo: VerificationRepository,
    private readonly seal: CredentialSeal,
    private readonly refresher: VerificationRefresher,
    private readonly jobs: VerificationRefreshJobs,
  ) {}

  /** The listing's sources as its seller or an admin sees them. */
  async connections(actor: Actor | null, listingId: string): Promise<VerificationConnectionsDto> {
    const listing = authorizeConnectionsRead(requireActor(actor), await this.listings.findById(listingId));
    return this.present(listing.id);
  }

  /**
   * Connects Stripe with a restricted key: checked by a one-charge read, kept sealed, then read in full at once and
   * daily by the refresh jobs. A test-mode key is refused where figures are real (it reads Stripe's test data).
   */
  async connectStripe(actor: Actor | null, listingId: string, input: ConnectStripe): Promise<VerificationConnectionsDto> {
    const listing = authorizeConnect(requireActor(actor), await this.listings.findById(listingId));
    const revenue = this.refresher.revenue;
    if (!revenue) throw conflict('Stripe verification is not set up on this marketplace');
    if (isStripeTestKey(input.key) && !this.refresher.testMode) {
      throw badRequest("A test-mode key (rk_test_) reads Stripe's test data, not the site's revenue: paste a live restricted key (rk_live_).");
    }
    const deadline = this.deadline();
    const checked = await this.firstRead(() => revenue.check(input.key), 'Stripe', deadline);
    await this.keep(listing, 'stripe', input.key, null, checked.account_label);
    return this.present(listing.id);
  }

  /** Starts a GA4 consent: a single-use state bound to the seller, listing and property, and Google's consent address. */
  async startGa4(actor: Actor | null, listingId: string, propertyId: string, redirectUri: string): Promise<{ authorize_url: string }> {
    const seller = requireActor(actor);
    const listing = authorizeConnect(seller, await this.listings.findById(listingId));
    const traffic = this.refresher.traffic;
    if (!traffic) throw conflict('Google Analytics verification is not set up on this marketplace');
    const state = randomBytes(24).toString('base64url');
    await this.repo.issueState(state, { listing_id: listing.id, seller_id: seller.user_id, property_id: propertyId }, new Date(Date.now() + CONSENT_TTL_MS));
    return { authorize_url: traffic.authorizeUrl({ state, redirect_uri: redirectUri }) };
  }

  /**
   * Finishes a GA4 consent: the state must be one issued to the caller (CSRF), unused and unexpired; it is used up
   * whatever follows. The code is exchanged for a refresh token, and a report of the last month proves it can read the
   * property; the 12 months are read at once after, and daily.
   */
  async finishGa4(actor: Actor | null, code: string, state: string, redirectUri: string): Promise<VerificationConnectionsDto> {
    const seller = requireActor(actor);
    const traffic = this.refresher.traffic;
    if (!traffic) throw conflict('Google Analytics verification is not set up on this marketplace');
    const consent = seller.impersonator_id ? null : await this.repo.takeState(state, seller.user_id);
    if (!consent) throw badRequest(BAD_STATE);
    const listing = authorizeConnect(seller, await this.listings.findById(consent.listing_id));
    const deadline = this.deadline();
    const token = await this.firstRead(() => traffic.exchange(code, redirectUri), 'Google', deadline);
    const lastMonth = verifiedMonths(new Date()).at(-1) as string;
    await this.firstRead(() => traffic.monthly(token.refresh_token, consent.property_id, `${lastMonth}-01`, `${lastMonth}-28`), 'Google Analytics', deadline);
    await this.keep(listing, 'ga4', token.refresh_token, consent.property_id, null);
    return this.present(listing.id);
  }

  /** Disconnects a source: its key or token and every figure taken from it are deleted, and the badge goes. */
  async disconnect(actor: Actor | null, listingId: string, source: VerificationSource): Promise<VerificationConnectionsDto> {
    const listing = authorizeConnect(requireActor(actor), await this.listings.findById(listingId));
    const before = await this.repo.connection(listing.id, source);
    await this.repo.transaction(async (manager) => {
      await this.repo.deleteConnection(listing.id, source, manager);
      await this.refresher.syncFlags([listing.id], manager);
    });
    await this.jobs.unschedule(listing.id, source);
    if (source === 'ga4' && before) await this.refresher.revokeQuietly(this.seal.open(before.credential, listing.id, source));
    return this.present(listing.id);
  }

  /** The verified figures of listings, for their pages and the admin review (one read for all). */
  async figuresOf(listings: readonly Pick<ListingDto, 'id' | 'monthly_revenue' | 'monthly_traffic'>[]): Promise<Map<string, ListingDto['verification']>> {
    const ids = listings.map((l) => l.id);
    const [connections, snapshots] = await Promise.all([this.repo.connectionsOf(ids), this.repo.latestSnapshots(ids)]);
    const now = new Date();
    return new Map(
      listings.map((l) => [
        l.id,
        presentVerification(connections.filter((c) => c.listing_id === l.id), snapshots.filter((s) => s.listing_id === l.id), l, now),
      ]),
    );
  }

  /** The listings' card flags from their sources, after their claims were edited (the same transaction). */
  syncFlags(listingIds: readonly string[], manager: EntityManager) {
    return this.refresher.syncFlags(listingIds, manager);
  }

  // The credential, sealed, replacing any before it (and its figures); its first full read runs at once as a job.
  private async keep(listing: ListingRecord, source: VerificationSource, secret: string, propertyId: string | null, accountLabel: string | null): Promise<void> {
    // Only a Google grant is given back when replaced: a Stripe key is the seller's to revoke.
    const before = source === 'ga4' ? await this.repo.connection(listing.id, source) : null;
    const connectedAt = await this.repo.transaction(async (manager) => {
      const credential = this.seal.seal(secret, listing.id, source);
      const testMode = this.refresher.testMode || isStripeTestKey(secret);
      const at = await this.repo.saveConnection(
        { listing_id: listing.id, source, seller_id: listing.seller_id, credential, property_id: propertyId, account_label: accountLabel, test_mode: testMode },
        manager,
      );
      await this.refresher.syncFlags([listing.id], manager);
      return at;
    });
    // Not waited for: the answer must not outlast the caller's deadline on Redis, and the sweep queues what it missed.
    void this.jobs.startReading(listing.id, source, connectedAt);
    const replaced = before ? this.seal.open(before.credential, listing.id, source) : null;
    if (replaced && replaced !== secret) void this.refresher.revokeQuietly(replaced);
  }

  /** When a first read must have answered: VERIFICATION_TIMEOUT_MS, and before the caller's own deadline. */
  private deadline(): number {
    const caller = currentDeadline();
    const own = Date.now() + this.refresher.timeoutMs();
    return caller === null ? own : Math.min(own, caller - DEADLINE_MARGIN_MS);
  }

  // A provider's refusal is the seller's to fix (400, its message); a slow or broken provider is a 503 and keeps nothing.
  private async firstRead<T>(read: () => Promise<T>, provider: string, deadline: number): Promise<T> {
    const left = deadline - Date.now();
    if (left <= 0) throw unavailable(`${provider} was not asked: no time was left, so nothing was connected. Please try again.`);
    try {
      return await withTimeout(read(), left, provider);
    } catch (error) {
      if (error instanceof ProviderRefused) throw badRequest(error.message);
      if (error instanceof ProviderUnavailable) throw unavailable(`${provider} did not answer properly, so nothing was connected: ${error.message}`);
      // Our own bound: the provider did not answer before the caller's deadline.
      if (error instanceof Error && /did not answer in \d+ ms/.test(error.message)) throw unavailable(`${provider} did not answer in time, so nothing was connected. Please try again.`);
      throw error;
    }
  }

  private async present(listingId: string): Promise<VerificationConnectionsDto> {
    const [connections, snapshots] = await Promise.all([this.repo.connectionsOf([listingId]), this.repo.latestSnapshots([listingId])]);
    return {
      listing_id: listingId,
      sources: VERIFICATION_SOURCES.map((source) =>
        presentConnection(
          source,
          this.refresher.setUp(source),
          connections.find((c) => c.source === source),
          snapshots.find((s) => s.source === source),
        ),
      ),
    };
  }
}
