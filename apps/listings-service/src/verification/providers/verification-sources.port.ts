/** One charge as the revenue rules read it (libs/domain verified-figures.rules.ts monthlyNetRevenue). */
export interface ChargeRow {
  /** What was captured of the charge, in the currency's minor unit; 0 for a hold never captured. */
  amount_cents: number;
  /** What was refunded of it (the rules subtract it, never below zero). */
  refunded_cents: number;
  created_at: Date;
  succeeded: boolean;
  /** Lower-case ISO code as Stripe gives it ('usd'). */
  currency: string;
}

/** One month of a GA4 property's traffic. */
export interface TrafficMonth {
  /** `YYYY-MM`. */
  month: string;
  users: number;
  sessions: number;
}

/**
 * The provider refused: 'revoked' (401: key/token no longer valid), 'permission' (the key lacks Charges: Read, the
 * scope was not granted, or the GA4 property cannot be read by this Google user: 403), 'invalid' (a bad or used OAuth
 * code, invalid_grant, a malformed key). `message` is safe to show the seller and NEVER contains the key or token.
 */
export class ProviderRefused extends Error {
  override readonly name = 'ProviderRefused';

  constructor(
    readonly kind: 'revoked' | 'permission' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

/** The provider was slow (over the timeout), unreachable, answered 5xx or something malformed. Message safe to show/log, no secrets. */
export class ProviderUnavailable extends Error {
  override readonly name = 'ProviderUnavailable';
}

/** How far one full read may go (ADR 0084): it stops, unavailable, past either. */
export interface ReadLimits {
  /** Epoch ms: no page is asked for after it. */
  deadline: number;
  /** The most charges kept: an account with more is not read (its memory would be ours). */
  maxCharges: number;
}

/** Reads a seller's revenue source with the key they pasted (ADR 0084: a Stripe restricted key, passed per call). */
export interface RevenueReader {
  /**
   * Every charge created at or after `since` (all pages, Stripe auto-pagination, limit 100), and the account's
   * statement descriptor when a charge says (calculated_statement_descriptor of the newest charge), else null.
   * Throws ProviderUnavailable past `limits`.
   */
  charges(key: string, since: Date, limits?: ReadLimits): Promise<{ charges: ChargeRow[]; account_label: string | null }>;
  /** One page of one charge: proves the key can read charges (the connect's check), with the newest descriptor. */
  check(key: string): Promise<{ account_label: string | null }>;
}

/** Reads a seller's traffic source through Google's OAuth (ADR 0084: analytics.readonly, only the refresh token kept). */
export interface TrafficReader {
  /** Google's consent address: scope https://www.googleapis.com/auth/analytics.readonly, access_type offline, prompt consent, the given state and redirect_uri. */
  authorizeUrl(input: { state: string; redirect_uri: string }): string;
  /** Exchanges an authorization code. Refused 'invalid' on invalid_grant; 'permission' when the granted scopes lack analytics.readonly or no refresh_token came back. */
  exchange(code: string, redirect_uri: string): Promise<{ refresh_token: string }>;
  /**
   * Monthly totalUsers and sessions by yearMonth for property `property_id` between two dates (YYYY-MM-DD,
   * inclusive), through @google-analytics/data's BetaAnalyticsDataClient runReport in REST mode (fallback: 'rest'),
   * authenticated by an OAuth2Client with the refresh token. Oldest first; a month without any traffic is absent, as
   * GA4 leaves out rows whose metrics are all zero.
   */
  monthly(refresh_token: string, property_id: string, from: string, to: string): Promise<TrafficMonth[]>;
  /** Gives the access back at Google (its revoke endpoint): the refresh token stops working there too. */
  revoke(refresh_token: string): Promise<void>;
}

/** Nest injection token of the RevenueReader. */
export const REVENUE_READER = Symbol('REVENUE_READER');
/** Nest injection token of the TrafficReader. */
export const TRAFFIC_READER = Symbol('TRAFFIC_READER');
