import {
  ConnectStripeSchema,
  StartGa4Schema,
  type VerificationConnectionDto,
  type VerificationConnectionsDto,
  type VerificationSource,
} from '@market/contracts';
import { isStripeTestKey } from '@market/domain';
import { firstReadFailed } from './verification-reading';

/** The seller's names of the two sources (D24). */
export const SOURCE_NAMES: Record<VerificationSource, string> = { stripe: 'Stripe', ga4: 'Google Analytics' };

/** What the panel says when the operator has not configured a provider (the connection's `available` is false). */
export const NOT_SET_UP_TEXT: Record<VerificationSource, string> = {
  stripe: 'Stripe verification is not set up on this marketplace.',
  ga4: 'Google Analytics verification is not set up on this marketplace.',
};

/** The confirmation a disconnect asks for: it deletes the credential and the figures taken with it (ADR 0084). */
export const DISCONNECT_TEXT: Record<VerificationSource, string> = {
  stripe: 'Disconnect deletes the key and every figure taken from it.',
  ga4: 'Disconnect deletes the Google access and every figure taken from it.',
};

// ADR 0084: a connection answers once the key or consent is checked and kept; the 12 months are read a moment later.
/** What the panel says once Stripe's key was kept: the figures come with the background read, not yet. */
export const STRIPE_CONNECTED_TEXT = 'Stripe is connected. We’re reading the last 12 months; the figures appear on this listing in a moment.';

/** The notice the listing page shows after Google Analytics was connected (the /verify/ga4 page sends it there). */
export const GA4_CONNECTED_NOTICE =
  'Google Analytics is connected. We’re reading the last 12 months; the figures appear on this listing in a moment.';

/** One source's connection in the answer, or undefined when the answer does not name it. */
export function sourceOf(connections: VerificationConnectionsDto | undefined, source: VerificationSource): VerificationConnectionDto | undefined {
  return connections?.sources.find((entry) => entry.source === source);
}

type Connection = NonNullable<VerificationConnectionDto['connection']>;

/** A connection's state for its seller, in words; a first read that failed has no figures to fall back on (ADR 0084). */
export function connectionStateText(connection: Pick<Connection, 'state' | 'verified_at'>): string {
  switch (connection.state) {
    case 'active':
      return 'Connected';
    case 'failing':
      return firstReadFailed(connection)
        ? 'Connected, but the first read failed: no figures show yet, and the daily refresh tries again'
        : 'Connected, but the last refresh failed: buyers see the last good figures with their date';
    case 'revoked':
      return 'No longer connected: the provider refused our access. Buyers see the last figures as no longer connected';
  }
}

/** True when the seller can connect (again): never connected, or the provider refused the old key or token. */
export function offersConnect(entry: VerificationConnectionDto): boolean {
  return entry.available && (entry.connection === null || entry.connection.state === 'revoked');
}

const STRIPE_TEST_KEY_REFUSED = 'A test-mode key (rk_test_) reads Stripe’s test data, not your revenue: paste a live restricted key (rk_live_)';

/**
 * The first problem with a pasted key, by the contract's own rules (a secret key is refused) and the server's: a
 * test-mode key reads Stripe's test data, so only a TEST MODE marketplace takes it (ADR 0084). Null when it may be sent.
 */
export function stripeKeyProblem(key: string, testMode: boolean): string | null {
  const parsed = ConnectStripeSchema.safeParse({ key });
  if (!parsed.success) return parsed.error.issues[0]?.message ?? 'That is not a Stripe restricted key';
  if (isStripeTestKey(parsed.data.key) && !testMode) return STRIPE_TEST_KEY_REFUSED;
  return null;
}

/** Which keys the help text asks for: rk_test_ keys only on a TEST MODE marketplace (the entry's `test_mode`). */
export function stripeKeyPrefixText(testMode: boolean): string {
  return testMode
    ? 'It starts with rk_live_, or rk_test_: this marketplace is in TEST MODE, so test-mode keys work here.'
    : 'It starts with rk_live_. Test-mode keys (rk_test_) only work on a TEST MODE marketplace, not here.';
}

/** The first problem with a typed GA4 property id (digits only); null when it may be sent. */
export function propertyIdProblem(propertyId: string): string | null {
  const parsed = StartGa4Schema.safeParse({ property_id: propertyId });
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'A GA4 property id is a number');
}

/** The consent page to send the seller to, only when it is a web address (never a `javascript:` one); else null. */
export function consentTarget(url: string): string | null {
  try {
    const target = new URL(url);
    return target.protocol === 'https:' || target.protocol === 'http:' ? target.href : null;
  } catch {
    return null;
  }
}

/**
 * What Google's `error` parameter means for the seller, when the consent came back without a code: fixed texts only,
 * never the parameter itself (anyone can craft the link, ADR 0084).
 */
export function ga4RefusalText(error: string): string {
  if (error === 'access_denied') return "You did not allow access on Google's page.";
  return 'Google did not complete the consent.';
}

/** The notice a page was sent with (router state `{ notice }`), or null. */
export function noticeOf(state: unknown): string | null {
  const notice = (state as { notice?: unknown } | null | undefined)?.notice;
  return typeof notice === 'string' && notice.trim() ? notice : null;
}

// The listing whose GA4 consent is under way, so /verify/ga4 can link back to it when Google's answer fails.
const GA4_LISTING_KEY = 'ga4VerifyListing';

/** Remembers, for this tab, which listing the seller is connecting Google Analytics for. */
export function rememberGa4Listing(listingId: string): void {
  try {
    sessionStorage.setItem(GA4_LISTING_KEY, listingId);
  } catch {
    // Storage refused (private mode): the callback page links to the seller's listings instead.
  }
}

/** The listing remembered by rememberGa4Listing, or null. */
export function rememberedGa4Listing(): string | null {
  try {
    const id = sessionStorage.getItem(GA4_LISTING_KEY);
    return id && /^[0-9a-f-]{36}$/i.test(id) ? id : null;
  } catch {
    return null;
  }
}

/** Forgets the remembered listing once the connection is finished. */
export function forgetGa4Listing(): void {
  try {
    sessionStorage.removeItem(GA4_LISTING_KEY);
  } catch {
    // Nothing to forget.
  }
}
