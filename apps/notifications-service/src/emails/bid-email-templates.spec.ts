import type { EventPayloads } from '@market/contracts';
import { bidDigestNotice, outbidNotice, type BidDigest } from './bid-email-templates';
import { noticeEmail } from './notice';

const placed: EventPayloads['bid.placed'] = {
  bid_id: 'b1',
  listing_id: 'l-1',
  bidder_id: 'u-2',
  bidder_name: 'rival',
  amount: 1_650,
  current_bid: 1_650,
  bid_count: 7,
  reserve_met: true,
  expires_at: '2026-12-01T10:00:00.000Z',
  extended: false,
  created_at: '2026-11-26T09:00:00.000Z',
  seller_id: 'u-1',
  listing_title: 'Cooking blog',
  previous_leader_id: 'u-3',
  automatic: true,
};

const digest: BidDigest = {
  id: 'e-1',
  listing_id: 'l-1',
  listing_title: 'Cooking <b>blog</b>',
  bids: 10,
  automatic_bids: 3,
  first_bid_at: new Date('2026-11-26T09:00:00.000Z'),
  last_bid_at: new Date('2026-11-26T09:04:30.000Z'),
  current_bid: 3_100,
  bid_count: 12,
  reserve_met: false,
  expires_at: new Date('2026-12-01T10:00:00.000Z'),
  extended: false,
};

describe('outbidNotice (ADR 0056)', () => {
  it('names the current price and the end, and links to the listing', () => {
    const notice = outbidNotice(placed);
    expect(notice.subject).toBe('You\'ve been outbid on "Cooking blog"');
    expect(notice.paragraphs[0]).toBe('Another bidder has passed your highest bid on "Cooking blog". The current price is $1,650.');
    expect(notice.paragraphs[1]).toContain('Tue, 01 Dec 2026 10:00:00 UTC');
    expect(notice.link_path).toBe('/listing/l-1');
  });

  it('says nothing of the event but the public price, title and end: no bidder, no amount of its own', () => {
    // The recorded amount may differ from the price shown (older events); only current_bid is public state.
    const text = noticeEmail({ username: 'ann', notice: outbidNotice({ ...placed, amount: 4_321 }), publicUrl: 'https://market.example' }).text;
    expect(text).not.toContain('4,321');
    expect(text).not.toContain('rival');
  });
});

describe('bidDigestNotice (ADR 0056)', () => {
  it('counts the window\'s bids, the automatic ones, the time range and the price now', () => {
    const notice = bidDigestNotice(digest);
    expect(notice.subject).toBe('10 new bids on "Cooking <b>blog</b>": now $3,100');
    expect(notice.paragraphs).toEqual([
      '"Cooking <b>blog</b>" received 10 new bids (3 placed automatically up to bidders\' maximums) between Thu, 26 Nov 2026 09:00:00 UTC and Thu, 26 Nov 2026 09:04:30 UTC.',
      'The current bid is $3,100, with 12 bids in all. It is below your reserve.',
      'The auction ends at Tue, 01 Dec 2026 10:00:00 UTC.',
    ]);
    expect(notice.link_path).toBe('/listing/l-1');
  });

  it('reads naturally for one bid, a met reserve and an extended end', () => {
    const notice = bidDigestNotice({ ...digest, bids: 1, automatic_bids: 0, bid_count: 1, last_bid_at: digest.first_bid_at, reserve_met: true, extended: true });
    expect(notice.subject).toBe('A new bid on "Cooking <b>blog</b>": now $3,100');
    expect(notice.paragraphs).toEqual([
      '"Cooking <b>blog</b>" received 1 new bid at Thu, 26 Nov 2026 09:00:00 UTC.',
      'The current bid is $3,100, with 1 bid in all. It meets your reserve.',
      'Bids in the final minutes extended the auction: it now ends at Tue, 01 Dec 2026 10:00:00 UTC.',
    ]);
  });

  it('escapes the seller-written title in HTML', () => {
    const html = noticeEmail({ username: 'sam', notice: bidDigestNotice(digest), publicUrl: 'https://market.example' }).html;
    expect(html).toContain('Cooking &lt;b&gt;blog&lt;/b&gt;');
    expect(html).toContain('href="https://market.example/listing/l-1"');
  });
});
