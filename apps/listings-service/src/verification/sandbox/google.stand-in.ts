import { randomBytes } from 'node:crypto';
import type { TrafficMonth } from '../providers/verification-sources.port';
import { broken, json, StandInServer, type StandInAddress, type StandInAnswer, type StandInCall } from './stand-in-server';
import { consentPage, type ConsentRequest } from './google-consent.page';

/** The scope the traffic reader asks for (ADR 0084). */
export const ANALYTICS_READONLY = 'https://www.googleapis.com/auth/analytics.readonly';

/** A grant the stand-in issued: what the Google user allowed, and whether it was revoked since. */
interface Grant {
  scopes: string[];
  refresh_token: string | null;
  revoked: boolean;
}

/** A code waiting to be exchanged: single use, bound to its redirect_uri (when given), valid ten minutes as Google's. */
interface PendingCode {
  grant: Grant;
  redirect_uri: string | null;
  expires_at: number;
  used: boolean;
}

/** A GA4 property's months and which refresh tokens' Google users can read it. */
interface Property {
  months: TrafficMonth[];
  readableBy: Set<string>;
  /** Readable by every Google user (the sandbox's properties). */
  anyone?: boolean;
  /** 'revoked': the report answers 401, as when access is removed between the token refresh and the report. */
  behaviour: 'ok' | 'revoked' | 'slow' | 'broken';
}

const newToken = (prefix: string) => `${prefix}${randomBytes(18).toString('base64url')}`;
const googleError = (code: number, status: string, message: string) => json(code, { error: { code, message, status } });

/**
 * A stand-in of the Google endpoints the traffic reader uses (ADR 0084): the consent page (GET /o/oauth2/v2/auth, a
 * TEST MODE page with Allow and Deny), the token endpoint (POST /token: authorization_code and refresh_token grants,
 * client checked, codes single-use and bound to their redirect_uri) and the GA4 Data API's runReport (POST
 * /v1beta/properties/{id}:runReport) answering RunReportResponse JSON from the months registered per property.
 * `issueCode` gives a code without a browser. A property's months are whole: a month overlapping a date range counts
 * whole, and one with no users and no sessions is left out, as GA4 leaves out all-zero rows.
 */
export class GoogleStandIn {
  /** How many requests the stand-in has answered or is holding. */
  requests = 0;
  /** How long 'slow' holds an answer back: longer than any timeout a test gives the reader. */
  slowMs = 10_000;
  /** What 'broken' answers. */
  brokenAs: 'status_500' | 'malformed_json' = 'status_500';
  /** How the token endpoint answers. */
  tokenBehaviour: 'ok' | 'slow' | 'broken' = 'ok';
  /** The sandbox's properties (ADR 0084): months for a property never registered, readable by anyone, or null (403). */
  openProperties: ((propertyId: string) => TrafficMonth[] | null) | null = null;
  private readonly codes = new Map<string, PendingCode>();
  private readonly grants = new Map<string, Grant>();
  private readonly accessTokens = new Map<string, Grant>();
  private readonly properties = new Map<string, Property>();
  private readonly server = new StandInServer((call) => this.serve(call));
  private base = '';

  constructor(readonly client: { id: string; secret: string } = { id: 'stand-in-client.apps.googleusercontent.com', secret: 'stand-in-client-secret' }) {}

  /** Starts on 127.0.0.1 and a free port. */
  async start(): Promise<StandInAddress> {
    const address = await this.server.start();
    this.base = `http://${address.host}:${address.port}`;
    return address;
  }

  /** Stops, dropping any held-back answer. */
  stop(): Promise<void> {
    return this.server.stop();
  }

  /** The reader's options pointing at the stand-in (authorizeUrl, tokenUrl, dataApiEndpoint, protocol). */
  get endpoints(): { authorizeUrl: string; tokenUrl: string; revokeUrl: string; dataApiEndpoint: string; protocol: 'http' } {
    return {
      authorizeUrl: `${this.base}/o/oauth2/v2/auth`,
      tokenUrl: `${this.base}/token`,
      revokeUrl: `${this.base}/revoke`,
      dataApiEndpoint: this.base.replace('http://', ''),
      protocol: 'http',
    };
  }

  /**
   * A code as the consent page's Allow gives one, without a browser: `scopes` are what the user granted;
   * `refresh_token` is the one its exchange returns (a new one by default; null: none, as when consent was not prompted).
   */
  issueCode(input: { scopes: string[]; refresh_token?: string | null; redirect_uri?: string }): string {
    const refresh = input.refresh_token === undefined ? newToken('1//stand-in-') : input.refresh_token;
    const grant: Grant = { scopes: [...input.scopes], refresh_token: refresh, revoked: false };
    if (refresh) this.grants.set(refresh, grant);
    const code = newToken('4/stand-in-');
    this.codes.set(code, { grant, redirect_uri: input.redirect_uri ?? null, expires_at: Date.now() + 10 * 60_000, used: false });
    return code;
  }

  /** The user removes the site's access in their Google account: the refresh token and its access tokens stop working. */
  revoke(refreshToken: string): void {
    const grant = this.grants.get(refreshToken);
    if (grant) grant.revoked = true;
  }

  /** True when the grant behind `refreshToken` was revoked (by the user, or by our revoke call). */
  isRevoked(refreshToken: string): boolean {
    return this.grants.get(refreshToken)?.revoked ?? false;
  }

  /** Registers a GA4 property's months, readable by the Google users behind `readableBy` (refresh tokens). */
  addProperty(propertyId: string, months: TrafficMonth[], readableBy: string[], behaviour: Property['behaviour'] = 'ok'): void {
    this.properties.set(propertyId, { months: months.map((m) => ({ ...m })), readableBy: new Set(readableBy), behaviour });
  }

  private serve(call: StandInCall): StandInAnswer {
    this.requests++;
    const path = decodeURIComponent(call.url.pathname);
    if (call.method === 'GET' && path === '/o/oauth2/v2/auth') return this.consent(call.url.searchParams);
    if (call.method === 'GET' && path === '/o/oauth2/v2/auth/decide') return this.decide(call.url.searchParams);
    if (call.method === 'POST' && path === '/token') return this.delayed(this.tokenBehaviour, () => this.token(call));
    if (call.method === 'POST' && path === '/revoke') return this.revokeCall(call);
    const report = /^\/v1beta\/properties\/([^/:]+):runReport$/.exec(path);
    if (call.method === 'POST' && report) return this.report(report[1], call);
    return googleError(404, 'NOT_FOUND', `The stand-in has no ${call.method} ${path}`);
  }

  // Google's revocation endpoint: POST /revoke?token= (a refresh or access token) ends the grant behind it.
  private revokeCall(call: StandInCall): StandInAnswer {
    const token = call.url.searchParams.get('token') ?? new URLSearchParams(call.body).get('token') ?? '';
    const grant = this.grants.get(token) ?? this.accessTokens.get(token);
    if (!grant) return json(400, { error: 'invalid_token', error_description: 'Token expired or revoked' });
    grant.revoked = true;
    return json(200, {});
  }

  private delayed(behaviour: 'ok' | 'slow' | 'broken', answer: () => StandInAnswer): StandInAnswer {
    if (behaviour === 'broken') return broken(this.brokenAs, { error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } });
    return behaviour === 'slow' ? { ...answer(), delayMs: this.slowMs } : answer();
  }

  private consent(query: URLSearchParams): StandInAnswer {
    const request: ConsentRequest = {
      client_id: query.get('client_id') ?? '',
      redirect_uri: query.get('redirect_uri') ?? '',
      scopes: (query.get('scope') ?? '').split(' ').filter(Boolean),
      state: query.get('state'),
      offline: query.get('access_type') === 'offline',
      prompt: query.get('prompt'),
    };
    if (request.client_id !== this.client.id) return { status: 401, headers: { 'Content-Type': 'text/plain' }, body: 'Error 401: invalid_client' };
    if (query.get('response_type') !== 'code' || !/^https?:\/\//.test(request.redirect_uri) || request.scopes.length === 0) {
      return { status: 400, headers: { 'Content-Type': 'text/plain' }, body: 'Error 400: invalid_request' };
    }
    return { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' }, body: consentPage(request) };
  }

  /** The consent page's form: Allow issues a code for the scopes left ticked, Deny says access_denied. */
  private decide(query: URLSearchParams): StandInAnswer {
    const redirect = new URL(query.get('redirect_uri') ?? '');
    const state = query.get('state');
    if (query.get('decision') === 'allow') {
      // A refresh token comes back on offline access with the consent prompt (what the reader asks for).
      const offline = query.get('offline') === '1' && query.get('prompt') === 'consent';
      const code = this.issueCode({ scopes: query.getAll('scope'), refresh_token: offline ? undefined : null, redirect_uri: redirect.toString() });
      redirect.searchParams.set('code', code);
      redirect.searchParams.set('scope', query.getAll('scope').join(' '));
    } else {
      redirect.searchParams.set('error', 'access_denied');
    }
    if (state !== null) redirect.searchParams.set('state', state);
    return { status: 302, headers: { Location: redirect.toString() }, body: '' };
  }

  private token(call: StandInCall): StandInAnswer {
    const form = new URLSearchParams(call.body);
    const basic = /^Basic (.+)$/.exec(String(call.headers.authorization ?? ''));
    const [id, secret] = basic ? Buffer.from(basic[1], 'base64').toString().split(':') : [form.get('client_id'), form.get('client_secret')];
    if (id !== this.client.id || secret !== this.client.secret) return json(401, { error: 'invalid_client', error_description: 'Unauthorized' });
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      const pending = this.codes.get(form.get('code') ?? '');
      if (!pending || pending.used || pending.expires_at < Date.now()) return json(400, { error: 'invalid_grant', error_description: 'Malformed auth code.' });
      if (pending.redirect_uri !== null && pending.redirect_uri !== form.get('redirect_uri')) return json(400, { error: 'redirect_uri_mismatch', error_description: 'Bad Request' });
      pending.used = true;
      return json(200, { ...this.accessFor(pending.grant), ...(pending.grant.refresh_token ? { refresh_token: pending.grant.refresh_token } : {}) });
    }
    if (grantType === 'refresh_token') {
      const grant = this.grants.get(form.get('refresh_token') ?? '');
      if (!grant || grant.revoked) return json(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      return json(200, this.accessFor(grant));
    }
    return json(400, { error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${grantType}` });
  }

  private accessFor(grant: Grant): Record<string, unknown> {
    const access = newToken('ya29.stand-in-');
    this.accessTokens.set(access, grant);
    return { access_token: access, expires_in: 3599, scope: grant.scopes.join(' '), token_type: 'Bearer' };
  }

  private report(propertyId: string, call: StandInCall): StandInAnswer {
    const bearer = /^Bearer (.+)$/.exec(String(call.headers.authorization ?? ''));
    const grant = bearer ? this.accessTokens.get(bearer[1]) : undefined;
    if (!grant || grant.revoked) {
      return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
    }
    if (!grant.scopes.some((scope) => scope === ANALYTICS_READONLY || scope === 'https://www.googleapis.com/auth/analytics')) {
      return googleError(403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.');
    }
    const opened = this.properties.has(propertyId) ? null : this.openProperties?.(propertyId);
    if (opened) this.properties.set(propertyId, { months: opened, readableBy: new Set(), anyone: true, behaviour: 'ok' });
    const property = this.properties.get(propertyId);
    if (!property || !grant.refresh_token || !(property.anyone || property.readableBy.has(grant.refresh_token))) {
      return googleError(403, 'PERMISSION_DENIED', 'User does not have sufficient permissions for this property.');
    }
    if (property.behaviour === 'revoked') return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    return this.delayed(property.behaviour, () => this.rows(property, call.body));
  }

  private rows(property: Property, body: string): StandInAnswer {
    const request = JSON.parse(body || '{}') as { dateRanges?: Array<{ startDate?: string; endDate?: string }>; dimensions?: Array<{ name?: string }>; metrics?: Array<{ name?: string }> };
    const metrics = (request.metrics ?? []).map((m) => m.name ?? '');
    const dimensions = (request.dimensions ?? []).map((d) => d.name ?? '');
    const unknown = [...dimensions.filter((d) => d !== 'yearMonth'), ...metrics.filter((m) => m !== 'totalUsers' && m !== 'sessions')];
    if (unknown.length > 0 || dimensions.length !== 1 || metrics.length === 0) {
      return googleError(400, 'INVALID_ARGUMENT', `The stand-in answers yearMonth by totalUsers and sessions, not ${[...dimensions, ...metrics].join(', ')}.`);
    }
    const ranges = (request.dateRanges ?? []).map((r) => [String(r.startDate).slice(0, 7), String(r.endDate).slice(0, 7)]);
    if (ranges.length === 0 || ranges.some(([from, to]) => !/^\d{4}-\d{2}$/.test(from) || !/^\d{4}-\d{2}$/.test(to))) {
      return googleError(400, 'INVALID_ARGUMENT', 'A date range needs a startDate and an endDate (YYYY-MM-DD).');
    }
    const months = property.months.filter((m) => (m.users !== 0 || m.sessions !== 0) && ranges.some(([from, to]) => m.month >= from && m.month <= to));
    const rows = months.map((m) => ({
      dimensionValues: [{ value: m.month.replace('-', '') }],
      metricValues: metrics.map((name) => ({ value: String(name === 'totalUsers' ? m.users : m.sessions) })),
    }));
    return json(200, {
      dimensionHeaders: [{ name: 'yearMonth' }],
      metricHeaders: metrics.map((name) => ({ name, type: 'TYPE_INTEGER' })),
      ...(rows.length > 0 ? { rows, rowCount: rows.length } : {}),
      metadata: { currencyCode: 'USD', timeZone: 'Etc/UTC' },
      kind: 'analyticsData#runReport',
    });
  }
}
