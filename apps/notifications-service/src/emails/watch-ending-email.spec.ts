import { watchEndingEmail, type EndingSoon } from './watch-ending-email';

const ending = (over: Partial<EndingSoon> = {}): EndingSoon => ({
  listing_id: 'l9',
  listing_title: 'Bread & <b>butter</b>',
  expires_at: '2030-05-04T09:05:00.000Z',
  current_price: 4_000,
  bid_count: 0,
  unsubscribe_token: `w-0b8a6f1e-2d4c-4c8e-9d3c-2f1c7a5255a1.${'d'.repeat(86)}`,
  ...over,
});

describe('the "ending in 24 hours" email (ADR 0074)', () => {
  it('says when it ends in UTC and the price with or without bids', () => {
    const quiet = watchEndingEmail({ username: 'ann', ending: ending(), publicUrl: 'https://market.example' });
    expect(quiet.text).toContain('ends at 2030-05-04 09:05 UTC.');
    expect(quiet.text).toContain('No bids yet: it starts at $4,000.');
    const busy = watchEndingEmail({ username: 'ann', ending: ending({ bid_count: 1, current_price: 4_500 }), publicUrl: 'https://market.example' });
    expect(busy.text).toContain('The current bid is $4,500 (1 bid).');
  });

  it('carries the one-click headers and keeps the title inert in HTML', () => {
    const email = watchEndingEmail({ username: 'ann', ending: ending(), publicUrl: 'https://market.example' });
    expect(email.headers).toEqual({
      'List-Unsubscribe': `<https://market.example/api/unsubscribe/${ending().unsubscribe_token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(email.text).toContain(`Stop these reminders: https://market.example/unsubscribe/${ending().unsubscribe_token}`);
    expect(email.html).not.toContain('<b>');
    expect(email.html).toContain('Bread &amp; &lt;b&gt;butter&lt;/b&gt;');
  });
});
