import { searchAlertEmail } from './search-alert-email';
import type { SearchAlertDigest } from './search-alerts.repository';

const TOKEN = `s-2f1c7a52-55a1-4c8e-9d3c-0b8a6f1e2d4c.${'b'.repeat(86)}`;
const digest = (over: Partial<SearchAlertDigest> = {}): SearchAlertDigest => ({
  id: 'e1',
  search_id: '2f1c7a52-55a1-4c8e-9d3c-0b8a6f1e2d4c',
  search_name: 'Blogs <b>cheap</b>',
  unsubscribe_token: TOKEN,
  listings: [{ listing_id: 'l1', title: 'Cats & "Dogs"', listing_type: 'fixed', category: 'Blog', price: 12_000 }],
  more: 0,
  ...over,
});

describe('the saved-search alert email (ADR 0074)', () => {
  it('carries the RFC 8058 one-click headers naming the API, and a body link to the page that asks first', () => {
    const email = searchAlertEmail({ username: 'ann', digest: digest(), publicUrl: 'https://market.example' });
    expect(email.headers).toEqual({ 'List-Unsubscribe': `<https://market.example/api/unsubscribe/${TOKEN}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(email.text).toContain(`Stop alerts for this search: https://market.example/unsubscribe/${TOKEN}`);
    expect(email.text).toContain('- Cats & "Dogs" (fixed price, $12,000): https://market.example/listing/l1');
    expect(email.subject).toBe('1 new listing matches "Blogs <b>cheap</b>"');
  });

  it('shows names inert in HTML, and counts the listings past the ones it names', () => {
    const email = searchAlertEmail({ username: '<img src=x>', digest: digest({ more: 7 }), publicUrl: 'https://market.example' });
    expect(email.html).not.toMatch(/<b>|<img/);
    expect(email.html).toContain('Blogs &lt;b&gt;cheap&lt;/b&gt;');
    expect(email.html).toContain('Cats &amp; &quot;Dogs&quot;');
    expect(email.subject).toBe('8 new listings match "Blogs <b>cheap</b>"');
    expect(email.text).toContain('And 7 more: see them all on Site Market.');
  });
});
