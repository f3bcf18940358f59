import { BetaAnalyticsDataClient, type protos } from '@google-analytics/data';
import { gaxios, OAuth2Client } from 'google-auth-library';
import { ProviderRefused, ProviderUnavailable, type TrafficMonth, type TrafficReader } from './verification-sources.port';

/** Google's OAuth client of the site, and where Google is (the stand-in in tests); `timeoutMs` bounds each request. */
export interface Ga4TrafficReaderOptions {
  clientId: string;
  clientSecret: string;
  /** The consent page (Google's by default). */
  authorizeUrl?: string;
  /** The token endpoint (Google's by default). */
  tokenUrl?: string;
  /** Where Google's token revocation is, when not Google's own. */
  revokeUrl?: string;
  /** The GA4 Data API: `host`, `host:port` or a URL (Google's by default). */
  dataApiEndpoint?: string;
  /** The Data API's protocol when dataApiEndpoint is not a URL. */
  protocol?: 'http' | 'https';
  timeoutMs: number;
}

/** The one scope asked (ADR 0084): read-only Analytics. */
export const ANALYTICS_READONLY_SCOPE = 'https://www.googleapis.com/auth/analytics.readonly';

const PROPERTY_ID = /^\d{1,20}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
type Phase = 'exchange' | 'refresh' | 'report' | 'revoke';
type RunReportResponse = protos.google.analytics.data.v1beta.IRunReportResponse;

/**
 * The traffic reader on Google's official libraries (ADR 0084): google-auth-library's OAuth2Client for consent, code
 * exchange and refresh, and @google-analytics/data's BetaAnalyticsDataClient in REST mode for runReport, both on
 * `fetch` (gaxios' default transport is an ESM import of node-fetch that Jest cannot load) and without retries: the
 * seller waits on a connection, and the daily refresh keeps the last good snapshot and tries again the next day.
 * Google's errors become the port's with our own messages, never a token.
 */
export class Ga4TrafficReader implements TrafficReader {
  private readonly data: { apiEndpoint?: string; port?: number; protocol?: 'http' | 'https' };

  constructor(private readonly options: Ga4TrafficReaderOptions) {
    this.data = dataEndpoint(options.dataApiEndpoint, options.protocol);
  }

  authorizeUrl(input: { state: string; redirect_uri: string }): string {
    return this.client().generateAuthUrl({
      scope: [ANALYTICS_READONLY_SCOPE],
      // Offline access with the consent prompt, so a refresh token comes back even when the user allowed us before.
      access_type: 'offline',
      prompt: 'consent',
      state: input.state,
      redirect_uri: input.redirect_uri,
    });
  }

  async exchange(code: string, redirect_uri: string): Promise<{ refresh_token: string }> {
    let tokens: unknown;
    try {
      ({ tokens } = await this.client().getToken({ code, redirect_uri }));
    } catch (error) {
      throw googleFailure(error, 'exchange');
    }
    if (!tokens || typeof tokens !== 'object' || typeof (tokens as { access_token?: unknown }).access_token !== 'string') {
      throw new ProviderUnavailable('Google answered the sign-in with something we could not read.');
    }
    const { scope, refresh_token } = tokens as { scope?: unknown; refresh_token?: unknown };
    // A user may untick the scope on Google's consent page: what was granted is checked, not assumed (ADR 0084).
    if (typeof scope !== 'string' || !scope.split(' ').includes(ANALYTICS_READONLY_SCOPE)) {
      throw new ProviderRefused('permission', 'Google Analytics access was not granted: connect again and allow "See and download your Google Analytics data".');
    }
    if (typeof refresh_token !== 'string' || refresh_token === '') {
      throw new ProviderRefused('permission', 'Google did not grant lasting access: connect again and allow access.');
    }
    return { refresh_token };
  }

  async monthly(refresh_token: string, property_id: string, from: string, to: string): Promise<TrafficMonth[]> {
    if (!PROPERTY_ID.test(property_id)) {
      throw new ProviderRefused('invalid', 'A Google Analytics property id is a number, as shown in Admin, Property settings.');
    }
    if (!DAY.test(from) || !DAY.test(to)) throw new RangeError('Report dates are YYYY-MM-DD');
    if (!refresh_token) throw new ProviderRefused('revoked', 'Google Analytics is no longer connected: connect it again.');
    const auth = this.client();
    auth.setCredentials({ refresh_token });
    try {
      // The refresh first, on its own: a refused refresh token is a revoked connection, a refused report is not.
      const { token } = await auth.getAccessToken();
      if (!token) throw new ProviderUnavailable('Google answered the token refresh with something we could not read.');
    } catch (error) {
      throw googleFailure(error, 'refresh');
    }
    const client = new BetaAnalyticsDataClient({ authClient: auth, fallback: 'rest', ...this.data });
    try {
      const [response] = await client.runReport({
        property: `properties/${property_id}`,
        dateRanges: [{ startDate: from, endDate: to }],
        dimensions: [{ name: 'yearMonth' }],
        metrics: [{ name: 'totalUsers' }, { name: 'sessions' }],
      });
      return trafficMonths(response);
    } catch (error) {
      throw googleFailure(error, 'report');
    } finally {
      await client.close();
    }
  }

  async revoke(refresh_token: string): Promise<void> {
    try {
      await this.client().revokeToken(refresh_token);
    } catch (error) {
      throw googleFailure(error, 'revoke');
    }
  }

  /** A client per call: each holds one seller's credentials. */
  private client(): OAuth2Client {
    return new OAuth2Client({
      clientId: this.options.clientId,
      clientSecret: this.options.clientSecret,
      endpoints: {
        ...(this.options.authorizeUrl ? { oauth2AuthBaseUrl: this.options.authorizeUrl } : {}),
        ...(this.options.tokenUrl ? { oauth2TokenUrl: this.options.tokenUrl } : {}),
        ...(this.options.revokeUrl ? { oauth2RevokeUrl: this.options.revokeUrl } : {}),
      },
      transporterOptions: {
        fetchImplementation: fetch,
        timeout: this.options.timeoutMs,
        // The auth library asks for retries on its token calls; retry 0 in the defaults it merges with turns them off.
        retryConfig: { retry: 0, noResponseRetries: 0 },
      },
    });
  }
}

/** The data client's endpoint options from `host`, `host:port` or a URL: the client's own port (443) wins over one in apiEndpoint. */
export function dataEndpoint(endpoint: string | undefined, protocol: 'http' | 'https' | undefined): { apiEndpoint?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!endpoint) return protocol ? { protocol } : {};
  if (/^https?:\/\//.test(endpoint)) {
    const url = new URL(endpoint);
    const scheme = url.protocol === 'http:' ? 'http' : 'https';
    return { apiEndpoint: url.hostname, port: url.port ? Number(url.port) : scheme === 'http' ? 80 : 443, protocol: scheme };
  }
  const hostPort = /^(.+):(\d+)$/.exec(endpoint);
  return { apiEndpoint: hostPort ? hostPort[1] : endpoint, ...(hostPort ? { port: Number(hostPort[2]) } : {}), ...(protocol ? { protocol } : {}) };
}

/** A RunReportResponse's yearMonth rows as months, oldest first; a row we cannot read makes the whole report unreadable. */
export function trafficMonths(response: RunReportResponse): TrafficMonth[] {
  const metrics = (response.metricHeaders ?? []).map((header) => header.name);
  const users = metrics.indexOf('totalUsers');
  const sessions = metrics.indexOf('sessions');
  const dimension = (response.dimensionHeaders ?? []).findIndex((header) => header.name === 'yearMonth');
  const rows = response.rows ?? [];
  if (rows.length > 0 && (users === -1 || sessions === -1 || dimension === -1)) throw new ProviderUnavailable('Google Analytics answered a report we could not read.');
  const count = (value: string | null | undefined) => (value && /^\d+$/.test(value) && Number.isSafeInteger(Number(value)) ? Number(value) : null);
  const months = rows.map((row) => {
    const yearMonth = row.dimensionValues?.[dimension]?.value ?? '';
    const month = { month: `${yearMonth.slice(0, 4)}-${yearMonth.slice(4)}`, users: count(row.metricValues?.[users]?.value), sessions: count(row.metricValues?.[sessions]?.value) };
    if (!/^\d{6}$/.test(yearMonth) || month.users === null || month.sessions === null) throw new ProviderUnavailable('Google Analytics answered a report we could not read.');
    return month as TrafficMonth;
  });
  return months.sort((a, b) => a.month.localeCompare(b.month));
}

/** Google's error as the port's: where it failed says what a 400, 401 or 403 means. Never Google's text or a token. */
export function googleFailure(error: unknown, phase: Phase): Error {
  if (error instanceof ProviderRefused || error instanceof ProviderUnavailable) return error;
  const e = error as { name?: unknown; code?: unknown; status?: unknown; response?: { status?: unknown; data?: unknown } } | null;
  const status = typeof e?.response?.status === 'number' ? e.response.status : typeof e?.status === 'number' ? e.status : null;
  const oauth = e?.response?.data && typeof e.response.data === 'object' ? (e.response.data as { error?: unknown }).error : undefined;
  if (e?.name === 'TimeoutError' || e?.code === 'TimeoutError' || e?.code === 'ETIMEDOUT' || (error instanceof gaxios.GaxiosError && /timeout|aborted/i.test(error.message) && !status)) {
    return new ProviderUnavailable('Google did not answer in time.');
  }
  if (status === null) return new ProviderUnavailable('Google could not be reached or answered something we could not read.');
  if (oauth === 'invalid_client' || oauth === 'unauthorized_client') return new ProviderUnavailable("Google refused this site's OAuth client.");
  if (phase === 'exchange' && status >= 400 && status < 500 && status !== 429) {
    return new ProviderRefused('invalid', 'Google did not accept this sign-in (it may have been used already or expired): connect again.');
  }
  if (phase === 'refresh' && (oauth === 'invalid_grant' || status === 401)) {
    return new ProviderRefused('revoked', 'Google Analytics access was removed or has expired: connect it again.');
  }
  if (phase === 'report' && status === 401) return new ProviderRefused('revoked', 'Google Analytics access was removed or has expired: connect it again.');
  if (phase === 'report' && status === 403) {
    return new ProviderRefused('permission', 'This Google account cannot read that Google Analytics property: check the property id and that the account has access to it.');
  }
  return new ProviderUnavailable(status >= 500 ? 'Google Analytics answered with an error.' : 'Google Analytics refused our request.');
}
