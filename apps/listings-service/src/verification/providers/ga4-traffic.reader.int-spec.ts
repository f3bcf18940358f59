import { ANALYTICS_READONLY, GoogleStandIn } from '../sandbox/google.stand-in';
import { Ga4TrafficReader, ANALYTICS_READONLY_SCOPE } from './ga4-traffic.reader';
import { ProviderRefused, ProviderUnavailable, type TrafficMonth } from './verification-sources.port';

// The traffic reader through the real google-auth-library and @google-analytics/data (REST) against the Google
// stand-in (ADR 0084).
// Long enough for a first token exchange through the libraries on a loaded CI machine (one at 400 ms timed out there),
// and a quarter of the stand-in's slow answer at most (the slow case's bound below).
const TIMEOUT_MS = 1500;
const REDIRECT = 'http://127.0.0.1:4200/api/listings/verification/google/callback';
const PROPERTY = '412345678';

/** The error a call failed with, asserting it never quotes any of the secrets anywhere it could be shown or logged. */
async function failure(call: Promise<unknown>, ...secrets: string[]): Promise<Error> {
  const error = await call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e as Error,
  );
  expect(error).toBeInstanceOf(Error);
  for (const text of [error.message, String(error.stack), JSON.stringify(error), String(error.cause ?? '')]) {
    for (const secret of secrets) expect(text).not.toContain(secret);
  }
  return error;
}

describe('Ga4TrafficReader against the Google stand-in', () => {
  const google = new GoogleStandIn();
  let reader: Ga4TrafficReader;
  const months: TrafficMonth[] = [
    { month: '2025-03', users: 300, sessions: 420 },
    { month: '2024-12', users: 90, sessions: 100 },
    { month: '2025-01', users: 100, sessions: 150 },
    { month: '2025-02', users: 0, sessions: 0 },
    { month: '2026-01', users: 999, sessions: 999 },
  ];

  beforeAll(async () => {
    google.slowMs = 10_000;
    await google.start();
    reader = new Ga4TrafficReader({ clientId: google.client.id, clientSecret: google.client.secret, ...google.endpoints, timeoutMs: TIMEOUT_MS });
  });
  afterAll(() => google.stop());
  beforeEach(() => {
    google.tokenBehaviour = 'ok';
    google.brokenAs = 'status_500';
    google.requests = 0;
  });

  /** A refresh token whose Google user can read PROPERTY, through a code exchange. */
  async function connected(behaviour: 'ok' | 'revoked' | 'slow' | 'broken' = 'ok'): Promise<string> {
    const { refresh_token } = await reader.exchange(google.issueCode({ scopes: [ANALYTICS_READONLY], redirect_uri: REDIRECT }), REDIRECT);
    google.addProperty(PROPERTY, months, [refresh_token], behaviour);
    google.requests = 0;
    return refresh_token;
  }

  it("asks Google's consent for read-only Analytics, offline, with the state and redirect", () => {
    const url = new URL(reader.authorizeUrl({ state: 'st4te-xyz', redirect_uri: REDIRECT }));
    expect(`${url.origin}${url.pathname}`).toBe(google.endpoints.authorizeUrl);
    expect(url.searchParams.get('scope')).toBe(ANALYTICS_READONLY_SCOPE);
    expect(ANALYTICS_READONLY_SCOPE).toBe('https://www.googleapis.com/auth/analytics.readonly');
    expect(url.searchParams.get('access_type')).toBe('offline');
    expect(url.searchParams.get('prompt')).toBe('consent');
    expect(url.searchParams.get('state')).toBe('st4te-xyz');
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe(google.client.id);
  });

  it('connects through the consent page: Allow redirects with a code and the state, which exchanges for a refresh token', async () => {
    const page = await fetch(reader.authorizeUrl({ state: 'st4te-xyz', redirect_uri: REDIRECT }));
    const html = await page.text();
    expect(html).toContain('TEST MODE — Google Analytics stand-in');
    expect(html).toMatch(/<button[^>]*value="allow"[^>]*>Allow<\/button>/);
    // Submit the form as a browser would: its fields as they are, with Allow.
    const action = /<form method="get" action="([^"]+)">/.exec(html)?.[1] as string;
    const fields = [...html.matchAll(/<input type="(?:hidden|checkbox)" name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]): [string, string] => [name, value.replace(/&#38;/g, '&')]);
    const decided = await fetch(`${google.endpoints.authorizeUrl.replace('/o/oauth2/v2/auth', '')}${action}?${new URLSearchParams([...fields, ['decision', 'allow']])}`, { redirect: 'manual' });
    expect(decided.status).toBe(302);
    const back = new URL(decided.headers.get('location') as string);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('st4te-xyz');

    const denied = await fetch(`${google.endpoints.authorizeUrl.replace('/o/oauth2/v2/auth', '')}${action}?${new URLSearchParams([...fields, ['decision', 'deny']])}`, { redirect: 'manual' });
    expect(new URL(denied.headers.get('location') as string).searchParams.get('error')).toBe('access_denied');

    const { refresh_token } = await reader.exchange(back.searchParams.get('code') as string, REDIRECT);
    google.addProperty(PROPERTY, months, [refresh_token]);
    await expect(reader.monthly(refresh_token, PROPERTY, '2025-01-01', '2025-03-31')).resolves.toHaveLength(2);
  });

  it('refuses a code used twice, or sent with another redirect, as invalid', async () => {
    const code = google.issueCode({ scopes: [ANALYTICS_READONLY], redirect_uri: REDIRECT });
    const { refresh_token } = await reader.exchange(code, REDIRECT);
    expect(refresh_token).toMatch(/^1\/\/stand-in-/);

    const reused = await failure(reader.exchange(code, REDIRECT), code, refresh_token, google.client.secret);
    expect(reused).toBeInstanceOf(ProviderRefused);
    expect(reused).toMatchObject({ kind: 'invalid' });
    const other = google.issueCode({ scopes: [ANALYTICS_READONLY], redirect_uri: REDIRECT });
    await expect(failure(reader.exchange(other, 'http://127.0.0.1:4200/elsewhere'), other)).resolves.toMatchObject({ kind: 'invalid' });
    await expect(failure(reader.exchange('4/not-a-code', REDIRECT), '4/not-a-code')).resolves.toMatchObject({ kind: 'invalid' });
  });

  it('refuses a grant without analytics.readonly, or without a refresh token, as a missing permission', async () => {
    const narrow = google.issueCode({ scopes: ['openid', 'email'] });
    await expect(failure(reader.exchange(narrow, REDIRECT), narrow)).resolves.toMatchObject({ kind: 'permission', message: expect.stringContaining('not granted') });
    const online = google.issueCode({ scopes: [ANALYTICS_READONLY], refresh_token: null });
    await expect(failure(reader.exchange(online, REDIRECT), online)).resolves.toMatchObject({ kind: 'permission', message: expect.stringContaining('lasting') });
  });

  it("reports Google refusing the site's own client as unavailable, not as the seller's fault", async () => {
    const misconfigured = new Ga4TrafficReader({ clientId: google.client.id, clientSecret: 'wrong-secret', ...google.endpoints, timeoutMs: TIMEOUT_MS });
    const code = google.issueCode({ scopes: [ANALYTICS_READONLY] });
    const error = await failure(misconfigured.exchange(code, REDIRECT), code, 'wrong-secret');
    expect(error).toBeInstanceOf(ProviderUnavailable);
  });

  it('reads monthly users and sessions by yearMonth within the dates, oldest first', async () => {
    const refresh = await connected();
    await expect(reader.monthly(refresh, PROPERTY, '2024-12-01', '2025-12-31')).resolves.toEqual([
      { month: '2024-12', users: 90, sessions: 100 },
      { month: '2025-01', users: 100, sessions: 150 },
      { month: '2025-03', users: 300, sessions: 420 },
    ]);
    await expect(reader.monthly(refresh, PROPERTY, '2023-01-01', '2023-12-31')).resolves.toEqual([]);
    // One token refresh and one report each: nothing retried.
    expect(google.requests).toBe(4);
  });

  it('reaches the Data API given as a URL too', async () => {
    const refresh = await connected();
    const byUrl = new Ga4TrafficReader({
      clientId: google.client.id,
      clientSecret: google.client.secret,
      tokenUrl: google.endpoints.tokenUrl,
      dataApiEndpoint: `http://${google.endpoints.dataApiEndpoint}`,
      timeoutMs: TIMEOUT_MS,
    });
    await expect(byUrl.monthly(refresh, PROPERTY, '2025-01-01', '2025-01-31')).resolves.toEqual([{ month: '2025-01', users: 100, sessions: 150 }]);
  });

  it('reports an unreachable Google as unavailable', async () => {
    const gone = new GoogleStandIn(google.client);
    await gone.start();
    const endpoints = gone.endpoints;
    await gone.stop();
    const offline = new Ga4TrafficReader({ clientId: google.client.id, clientSecret: google.client.secret, ...endpoints, timeoutMs: TIMEOUT_MS });
    const code = google.issueCode({ scopes: [ANALYTICS_READONLY] });
    await expect(failure(offline.exchange(code, REDIRECT), code, google.client.secret)).resolves.toMatchObject({ message: expect.stringMatching(/reached/) });
    await expect(failure(offline.monthly('1//some-token', PROPERTY, '2025-01-01', '2025-01-31'), '1//some-token')).resolves.toBeInstanceOf(ProviderUnavailable);
  });

  it('refuses a property the Google user cannot read, or one that does not exist, as a missing permission', async () => {
    const refresh = await connected();
    const { refresh_token: stranger } = await reader.exchange(google.issueCode({ scopes: [ANALYTICS_READONLY] }), REDIRECT);
    await expect(failure(reader.monthly(stranger, PROPERTY, '2025-01-01', '2025-03-31'), stranger)).resolves.toMatchObject({ kind: 'permission' });
    await expect(failure(reader.monthly(refresh, '999999', '2025-01-01', '2025-03-31'), refresh)).resolves.toMatchObject({ kind: 'permission' });
  });

  it('refuses a malformed property id before asking Google', async () => {
    const refresh = await connected();
    await expect(reader.monthly(refresh, '123/../456', '2025-01-01', '2025-03-31')).rejects.toMatchObject({ kind: 'invalid' });
    expect(google.requests).toBe(0);
  });

  it('refuses a revoked or unknown refresh token as revoked', async () => {
    const refresh = await connected();
    google.revoke(refresh);
    const revoked = await failure(reader.monthly(refresh, PROPERTY, '2025-01-01', '2025-03-31'), refresh, google.client.secret);
    expect(revoked).toBeInstanceOf(ProviderRefused);
    expect(revoked).toMatchObject({ kind: 'revoked' });
    await expect(failure(reader.monthly('1//never-issued', PROPERTY, '2025-01-01', '2025-03-31'), '1//never-issued')).resolves.toMatchObject({ kind: 'revoked' });
  });

  it('refuses a report answered 401 as revoked, without refreshing again', async () => {
    const refresh = await connected('revoked');
    await expect(failure(reader.monthly(refresh, PROPERTY, '2025-01-01', '2025-03-31'), refresh)).resolves.toMatchObject({ kind: 'revoked' });
    expect(google.requests).toBe(2);
  });

  it('gives up on a slow report, and on a slow token endpoint, within the timeout, as unavailable', async () => {
    const refresh = await connected('slow');
    for (const slow of ['report', 'token'] as const) {
      if (slow === 'token') google.tokenBehaviour = 'slow';
      const started = Date.now();
      const error = await failure(reader.monthly(refresh, PROPERTY, '2025-01-01', '2025-03-31'), refresh);
      const elapsed = Date.now() - started;
      expect(error).toBeInstanceOf(ProviderUnavailable);
      expect(error.message).toMatch(/in time/);
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(elapsed).toBeLessThan(google.slowMs / 4);
    }
  });

  it.each(['status_500', 'malformed_json'] as const)('reports a broken report or token endpoint (%s) as unavailable, without retrying', async (kind) => {
    google.brokenAs = kind;
    const refresh = await connected('broken');
    await expect(failure(reader.monthly(refresh, PROPERTY, '2025-01-01', '2025-03-31'), refresh)).resolves.toBeInstanceOf(ProviderUnavailable);
    expect(google.requests).toBe(2);

    google.tokenBehaviour = 'broken';
    google.requests = 0;
    await expect(failure(reader.monthly(refresh, PROPERTY, '2025-01-01', '2025-03-31'), refresh)).resolves.toBeInstanceOf(ProviderUnavailable);
    const code = google.issueCode({ scopes: [ANALYTICS_READONLY] });
    await expect(failure(reader.exchange(code, REDIRECT), code)).resolves.toBeInstanceOf(ProviderUnavailable);
    expect(google.requests).toBe(2);
  });
});
