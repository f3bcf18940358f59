import type { ListingDto, VerificationConnectionDto } from '@market/contracts';
import { createStore, type AppStore } from '../../testing/test-store';
import { renderStatic, visibleText } from '../../testing/static-render';
import { verifiedFiguresApi } from '../../api/verified-figures.api';
import { api } from '../../lib/api';
import { VerificationPanel } from './VerificationPanel';

jest.mock('./verified-figures.css', () => ({}));

const LISTING = { id: '0b7f6a52-3c1d-4e8f-9a2b-5c6d7e8f9a0b', seller_id: 'seller', website_url: 'https://tea.example' } as ListingDto;

const stripe = (over: Partial<VerificationConnectionDto> = {}): VerificationConnectionDto => ({ source: 'stripe', available: true, test_mode: false, connection: null, ...over });
const ga4 = (over: Partial<VerificationConnectionDto> = {}): VerificationConnectionDto => ({ source: 'ga4', available: true, test_mode: false, connection: null, ...over });
const connected = (state: 'active' | 'failing' | 'revoked', over: Partial<NonNullable<VerificationConnectionDto['connection']>> = {}) => ({
  state,
  connected_at: '2026-12-01T10:00:00.000Z',
  account_label: null,
  property_id: null,
  last_attempt_at: '2026-12-07T03:00:00.000Z',
  last_error: null,
  verified_at: '2026-12-06T03:00:00.000Z',
  ...over,
});

const stores: AppStore[] = [];
afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));

async function render(sources: VerificationConnectionDto[]): Promise<string> {
  const store = createStore();
  stores.push(store);
  await store.dispatch(verifiedFiguresApi.util.upsertQueryData('verificationConnections', LISTING.id, { listing_id: LISTING.id, sources }));
  return renderStatic(<VerificationPanel listing={LISTING} />, store);
}

/** The markup of one source's section. */
const section = (html: string, id: string) => html.slice(html.indexOf(`aria-labelledby="${id}"`), html.indexOf('</section>', html.indexOf(`aria-labelledby="${id}"`)));

/** The one input tag named `name`. */
const inputTag = (html: string, name: string) => html.match(new RegExp(`<input[^>]*name="${name}"[^>]*/>`))?.[0] ?? '';

describe('VerificationPanel (D24, ADR 0084)', () => {
  it('says a provider is not set up here, and offers no form for it', async () => {
    const html = await render([stripe({ available: false }), ga4({ available: false })]);
    expect(visibleText(html)).toContain('Stripe verification is not set up on this marketplace.');
    expect(visibleText(html)).toContain('Google Analytics verification is not set up on this marketplace.');
    expect(html).not.toContain('<form');
  });

  it('treats a source the answer does not name as not set up', async () => {
    expect(visibleText(await render([ga4()]))).toContain('Stripe verification is not set up on this marketplace.');
  });

  it('asks for a restricted key in a password field that browsers do not fill, with how to create it', async () => {
    const stripePart = section(await render([stripe(), ga4()]), 'verify-stripe-title');
    const input = inputTag(stripePart, 'stripe-restricted-key');
    expect(input).toContain('type="password"');
    expect(input).toMatch(/autocomplete="off"/i);
    expect(input).toContain('aria-describedby="stripe-key-help"');
    // Uncontrolled: the page never holds the key to write it back.
    expect(input).not.toContain('value=');
    expect(visibleText(stripePart)).toContain('Developers → API keys');
    expect(visibleText(stripePart)).toContain('“Charges: Read”');
    expect(stripePart).toContain('>Connect Stripe</button>');
  });

  it('asks for the GA4 property id', async () => {
    const part = section(await render([stripe(), ga4()]), 'verify-ga4-title');
    expect(inputTag(part, 'ga4-property-id')).toMatch(/inputmode="numeric"/i);
    expect(part).toContain('>Connect Google Analytics</button>');
  });

  it('shows a connection’s state, charge descriptor, dates and last error, with Disconnect and no form', async () => {
    const html = await render([
      stripe({ connection: connected('failing', { account_label: 'TEASHOP', last_error: 'Stripe did not answer in time' }) }),
      ga4({ connection: connected('active', { property_id: '123456789' }) }),
    ]);
    const stripePart = visibleText(section(html, 'verify-stripe-title'));
    expect(stripePart).toContain('Connected, but the last refresh failed');
    expect(stripePart).toContain('Charges described as TEASHOP');
    expect(stripePart).not.toContain('Account');
    expect(stripePart).toContain('Last verified December 6, 2026');
    expect(stripePart).toContain('Last error: Stripe did not answer in time');
    expect(stripePart).toContain('Disconnect Stripe');
    expect(visibleText(section(html, 'verify-ga4-title'))).toContain('Status Connected GA4 property 123456789');
    expect(html).not.toContain('<form');
  });

  it('says the first read runs, instead of a verified date, until it comes back (ADR 0084)', async () => {
    const html = await render([stripe({ connection: connected('active', { verified_at: null, last_attempt_at: null }) }), ga4()]);
    const part = section(html, 'verify-stripe-title');
    expect(part).toMatch(/<p class="connection-reading" role="status">Reading the last 12 months…<\/p>/);
    expect(visibleText(part)).not.toContain('Last verified');
    expect(visibleText(part)).toContain('Status Connected');
    expect(part).not.toContain('<form');
  });

  it('says a first read that failed, with its error and no reading', async () => {
    const html = await render([stripe({ connection: connected('failing', { verified_at: null, last_error: 'Stripe did not answer in time' }) }), ga4()]);
    const part = visibleText(section(html, 'verify-stripe-title'));
    expect(part).toContain('Connected, but the first read failed');
    expect(part).toContain('Last verified Not yet');
    expect(part).toContain('Last error: Stripe did not answer in time');
    expect(part).not.toContain('Reading the last 12 months');
  });

  it('asks for a live key where figures are real, and takes a test key only in TEST MODE', async () => {
    const live = section(await render([stripe(), ga4()]), 'verify-stripe-title');
    expect(visibleText(live)).toContain('Test-mode keys (rk_test_) only work on a TEST MODE marketplace, not here.');
    expect(inputTag(live, 'stripe-restricted-key')).toContain('placeholder="rk_live_…"');
    const test = section(await render([stripe({ test_mode: true }), ga4()]), 'verify-stripe-title');
    expect(visibleText(test)).toContain('this marketplace is in TEST MODE');
    expect(inputTag(test, 'stripe-restricted-key')).toContain('placeholder="rk_test_…"');
  });

  it('offers a new key once Stripe refused the old one', async () => {
    const part = section(await render([stripe({ connection: connected('revoked') }), ga4()]), 'verify-stripe-title');
    expect(visibleText(part)).toContain('No longer connected');
    expect(visibleText(part)).toContain('New restricted key');
    expect(part).toContain('Disconnect Stripe');
  });

  it('marks a provider run by a test stand-in as TEST MODE', async () => {
    expect(visibleText(section(await render([stripe({ test_mode: true }), ga4()]), 'verify-stripe-title'))).toContain('TEST MODE');
  });
});
