import { BUYING_HOLD_MESSAGE, minimumNextBid } from '@market/domain';
import type { AuctionRecord, BidRecord } from '../auctions/auction.records';
import { answersOf, decideBatch, type BatchStart } from './decide-batch';
import type { QueuedBid } from './queued-bid';

const NOW = new Date('2026-12-06T10:00:00Z');
const CLOCK = '2026-12-06T10:00:00.000999Z';
const auction: AuctionRecord = {
  listing_id: 'listing',
  seller_id: 'seller',
  title: 'A site',
  website_url: null,
  listing_type: 'auction',
  auction_type: 'auto',
  status: 'active',
  starting_price: 1000,
  reserve_price: 1500,
  current_bid: null,
  bid_count: 0,
  expires_at: new Date(NOW.getTime() + 86_400_000),
  buy_now_price: null,
  closed_at: null,
  winning_bid_id: null,
  price_version: 7,
};
const start = (overrides: Partial<BatchStart> = {}): BatchStart => ({ locked: auction, standing: [], refused: new Map(), clock: CLOCK, ...overrides });
const bid = (id: string, amount: number, max: number | null = null): QueuedBid => ({
  bidder: { id, name: `${id}-name` },
  amount,
  max_amount: max,
  now: NOW,
  anti_sniping_minutes: 0,
  request_id: `req-${id}`,
  traceparent: null,
});
/** The rows the recording statement would return for the batch's pending bids. */
const recordedOf = (pending: ReturnType<typeof decideBatch>['pending']): BidRecord[] =>
  pending.map((p) => ({
    id: p.payload.bid_id,
    listing_id: p.payload.listing_id,
    bidder_id: p.payload.bidder_id,
    kind: 'bid',
    amount: p.payload.amount,
    status: 'pending',
    automatic: p.automatic,
    created_at: new Date(p.payload.created_at),
  }));

describe('decideBatch (ADR 0058, 0070)', () => {
  it('decides in arrival order, carrying the price forward: the second bid at the old price is refused', () => {
    const decided = decideBatch(start(), [bid('ann', 1000), bid('bob', 1000)], () => false);
    expect(decided.decisions.map((d) => d.decision.accepted)).toEqual([true, false]);
    expect(decided.decisions[1].decision).toEqual({ accepted: false, reason: expect.stringContaining(`$${minimumNextBid(1000, 1000).toLocaleString('en-US')}`) });
    expect(decided.pending).toHaveLength(1);
    expect(decided.auction).toMatchObject({ current_bid: 1000, bid_count: 1, price_version: 8 });
  });

  it('builds each bid.placed from the auction as it stood, stamped from the database clock a microsecond per bid', () => {
    const next = minimumNextBid(1000, 1000);
    const decided = decideBatch(start(), [bid('ann', 1000), bid('bob', next)], () => false);
    expect(decided.pending.map((p) => p.payload)).toEqual([
      expect.objectContaining({ bidder_id: 'ann', bidder_name: 'ann-name', amount: 1000, bid_count: 1, price_version: 8, reserve_met: false, previous_leader_id: null, created_at: '2026-12-06T10:00:00.001Z' }),
      expect.objectContaining({ bidder_id: 'bob', amount: next, bid_count: 2, price_version: 9, previous_leader_id: 'ann', created_at: '2026-12-06T10:00:00.001Z' }),
    ]);
    expect(decided.pending.map((p) => p.entry)).toEqual([0, 1]);
  });

  it('refuses a removed or held caller with the reason read under the lock, and decides the others', () => {
    const decided = decideBatch(start({ refused: new Map([['held', BUYING_HOLD_MESSAGE]]) }), [bid('held', 5000), bid('ann', 1000)], () => false);
    expect(decided.decisions[0].decision).toEqual({ accepted: false, reason: BUYING_HOLD_MESSAGE });
    expect(decided.decisions[1].decision.accepted).toBe(true);
    expect(decided.pending.map((p) => p.payload.bidder_id)).toEqual(['ann']);
  });

  it('stops deciding where the lock-time cap says, leaving the rest undecided', () => {
    const decided = decideBatch(start(), [bid('ann', 1000), bid('bob', 5000), bid('cy', 6000)], (index) => index >= 1);
    expect(decided.decisions).toHaveLength(1);
    expect(decided.auction.current_bid).toBe(1000);
  });

  it('stores a new maximum, answers with it, and places the automatic bid for it when outbid', () => {
    // No reserve: a maximum above one would lift the price to it at once (ADR 0055).
    const decided = decideBatch(start({ locked: { ...auction, reserve_price: null } }), [bid('ann', 1000, 3000), bid('bob', 2000)], () => false);
    expect(decided.saved.get('ann')).toMatchObject({ max_amount: 3000, proxy: true, name: 'ann-name' });
    expect(decided.decisions[0].max_amount).toBe(3000);
    // Bob's typed bid, then Ann's maximum answering it at once.
    expect(decided.pending.map((p) => [p.payload.bidder_id, p.automatic, p.entry])).toEqual([
      ['ann', false, 0],
      ['bob', false, 1],
      ['ann', true, 1],
    ]);
    const answers = answersOf(decided, [bid('ann', 1000, 3000), bid('bob', 2000)], recordedOf(decided.pending), new Map());
    expect(answers[1].bid?.bidder_id).toBe('bob');
    expect(answers[1].recorded.map((r) => r.bidder_id)).toEqual(['bob', 'ann']);
    expect(answers[1].decision).toMatchObject({ accepted: true, leading: false });
  });

  it('answers a leader who only raised their maximum with their leading bid as it stood', () => {
    const standing = [{ bidder_id: 'ann', max_amount: 2000, set_at: new Date(NOW.getTime() - 60_000), proxy: true, bidder_name: 'ann-name' }];
    const locked = { ...auction, reserve_price: null, current_bid: 1000, bid_count: 1 };
    const queued = [bid('ann', 1000, 4000)];
    const decided = decideBatch(start({ locked, standing }), queued, () => false);
    expect(decided.pending).toEqual([]);
    expect(decided.raisedOnly).toEqual(['ann']);
    const leading: BidRecord = { id: 'old', listing_id: 'listing', bidder_id: 'ann', kind: 'bid', amount: 1000, status: 'pending', automatic: false, created_at: NOW };
    const [answer] = answersOf(decided, queued, [], new Map([['ann', leading]]));
    expect(answer.bid).toBe(leading);
    expect(answer.max_amount).toBe(4000);
  });
});
