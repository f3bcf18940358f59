import type { VerificationConnectionDto, VerificationConnectionsDto } from '@market/contracts';
import {
  connectionStateText,
  consentTarget,
  forgetGa4Listing,
  ga4RefusalText,
  noticeOf,
  offersConnect,
  propertyIdProblem,
  rememberedGa4Listing,
  rememberGa4Listing,
  sourceOf,
  STRIPE_CONNECTED_TEXT,
  stripeKeyPrefixText,
  stripeKeyProblem,
} from './verification-connections';

const LISTING = '0b7f6a52-3c1d-4e8f-9a2b-5c6d7e8f9a0b';

const connection = (state: 'active' | 'failing' | 'revoked'): NonNullable<VerificationConnectionDto['connection']> => ({
  state,
  connected_at: '2026-12-01T10:00:00.000Z',
  account_label: 'TEASHOP',
  property_id: null,
  last_attempt_at: '2026-12-07T03:00:00.000Z',
  last_error: null,
  verified_at: '2026-12-07T03:00:00.000Z',
});
const entry = (over: Partial<VerificationConnectionDto> = {}): VerificationConnectionDto => ({
  source: 'stripe',
  available: true,
  test_mode: false,
  connection: null,
  ...over,
});

describe('the seller’s connections', () => {
  it('finds each source in the answer, and nothing for one it does not name', () => {
    const answer: VerificationConnectionsDto = { listing_id: LISTING, sources: [entry(), entry({ source: 'ga4', available: false })] };
    expect(sourceOf(answer, 'ga4')?.available).toBe(false);
    expect(sourceOf({ ...answer, sources: [] }, 'stripe')).toBeUndefined();
    expect(sourceOf(undefined, 'stripe')).toBeUndefined();
  });
  it('offers to connect when never connected or refused, never when not set up or connected', () => {
    expect(offersConnect(entry())).toBe(true);
    expect(offersConnect(entry({ connection: connection('revoked') }))).toBe(true);
    expect(offersConnect(entry({ connection: connection('active') }))).toBe(false);
    expect(offersConnect(entry({ connection: connection('failing') }))).toBe(false);
    expect(offersConnect(entry({ available: false }))).toBe(false);
  });
  it('says what each state means for buyers', () => {
    expect(connectionStateText(connection('active'))).toBe('Connected');
    expect(connectionStateText(connection('failing'))).toMatch(/last good figures/);
    expect(connectionStateText(connection('revoked'))).toMatch(/^No longer connected/);
  });
  it('says a first read that failed left no figures (ADR 0084: the first read runs in the background)', () => {
    const text = connectionStateText({ state: 'failing', verified_at: null });
    expect(text).toMatch(/first read failed/);
    expect(text).not.toMatch(/last good figures/);
    expect(connectionStateText({ state: 'active', verified_at: null })).toBe('Connected');
  });
  it('no longer claims the figures show once Stripe is connected: they come with the read', () => {
    expect(STRIPE_CONNECTED_TEXT).toMatch(/^Stripe is connected\. We’re reading the last 12 months/);
    expect(STRIPE_CONNECTED_TEXT).not.toMatch(/now show/);
  });
});

describe('the Stripe key, checked by the contract before it is sent', () => {
  it('accepts a restricted key, live anywhere and test on a TEST MODE marketplace', () => {
    expect(stripeKeyProblem('rk_live_abcdefghij0123456789', false)).toBeNull();
    expect(stripeKeyProblem('rk_live_abcdefghij0123456789', true)).toBeNull();
    expect(stripeKeyProblem('  rk_test_abcdefghij0123456789 ', true)).toBeNull();
  });
  it('refuses a test-mode key where figures are real, as the server does, without repeating the key', () => {
    const problem = stripeKeyProblem('rk_test_abcdefghij0123456789', false);
    expect(problem).toMatch(/test-mode key \(rk_test_\).*rk_live_/);
    expect(problem).not.toContain('abcdefghij');
  });
  it('refuses a secret key and says what to create instead, without repeating the key', () => {
    const problem = stripeKeyProblem('sk_live_abcdefghij0123456789', true);
    expect(problem).toMatch(/secret key.*Charges: Read/);
    expect(problem).not.toContain('abcdefghij');
  });
  it('refuses anything that is not a restricted key', () => {
    expect(stripeKeyProblem('', false)).toBe('A restricted key starts with rk_live_ or rk_test_');
    expect(stripeKeyProblem('pk_live_abcdefghij0123456789', true)).toBe('A restricted key starts with rk_live_ or rk_test_');
  });
  it('says rk_test_ keys only work on a TEST MODE marketplace', () => {
    expect(stripeKeyPrefixText(false)).toBe('It starts with rk_live_. Test-mode keys (rk_test_) only work on a TEST MODE marketplace, not here.');
    expect(stripeKeyPrefixText(true)).toMatch(/rk_test_: this marketplace is in TEST MODE/);
  });
});

describe('starting Google Analytics', () => {
  it('takes a property id of digits only', () => {
    expect(propertyIdProblem(' 123456789 ')).toBeNull();
    expect(propertyIdProblem('G-ABC123')).toMatch(/is a number/);
    expect(propertyIdProblem('')).toMatch(/is a number/);
  });
  it('sends the seller only to a web address', () => {
    expect(consentTarget('https://accounts.google.com/o/oauth2/v2/auth?state=x')).toBe('https://accounts.google.com/o/oauth2/v2/auth?state=x');
    expect(consentTarget('http://localhost:4599/o/oauth2/auth')).toBe('http://localhost:4599/o/oauth2/auth');
    expect(consentTarget('javascript:alert(1)')).toBeNull();
    expect(consentTarget('/relative')).toBeNull();
  });
  it('explains Google’s refusal in fixed words, never echoing the parameter', () => {
    expect(ga4RefusalText('access_denied')).toBe("You did not allow access on Google's page.");
    expect(ga4RefusalText('server_error')).toBe('Google did not complete the consent.');
    expect(ga4RefusalText('<b>Call 555-0100 to restore your account</b>')).toBe('Google did not complete the consent.');
  });
});

describe('the notice a page was sent with', () => {
  it('reads a non-empty text notice and nothing else', () => {
    expect(noticeOf({ notice: 'Connected' })).toBe('Connected');
    expect(noticeOf({ notice: ' ' })).toBeNull();
    expect(noticeOf({ notice: 3 })).toBeNull();
    expect(noticeOf(null)).toBeNull();
    expect(noticeOf(undefined)).toBeNull();
  });
});

describe('the listing remembered across Google’s consent', () => {
  const store = new Map<string, string>();
  beforeAll(() => {
    (globalThis as { sessionStorage?: unknown }).sessionStorage = {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => void store.set(key, value),
      removeItem: (key: string) => void store.delete(key),
    };
  });
  afterAll(() => delete (globalThis as { sessionStorage?: unknown }).sessionStorage);

  it('keeps a listing id until the connection is finished', () => {
    rememberGa4Listing(LISTING);
    expect(rememberedGa4Listing()).toBe(LISTING);
    forgetGa4Listing();
    expect(rememberedGa4Listing()).toBeNull();
  });
  it('ignores anything that is not a listing id', () => {
    rememberGa4Listing('/evil');
    expect(rememberedGa4Listing()).toBeNull();
  });
  it('does without storage', () => {
    const kept = globalThis.sessionStorage;
    delete (globalThis as { sessionStorage?: unknown }).sessionStorage;
    expect(() => rememberGa4Listing(LISTING)).not.toThrow();
    expect(rememberedGa4Listing()).toBeNull();
    (globalThis as { sessionStorage?: unknown }).sessionStorage = kept;
  });
});
