import fc from 'fast-check';
import { minimumNextBid } from './increment.rules';
import { decideBid, decideClose, invalidAmount, type AuctionState } from './bid.rules';

const NOW = new Date('2026-11-22T12:00:00Z');
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);
const auction = (overrides: Partial<AuctionState> = {}): AuctionState => ({
  seller_id: 'seller',
  listing_type: 'auction',
  auction_type: 'auto',
  status: 'active',
  starting_price: 1000,
  reserve_price: null,
  current_bid: null,
  bid_count: 0,
  expires_at: minutes(60 * 24),
  ...overrides,
});

describe('decideBid (D6, D9)', () => {
  it('takes a first bid at the starting price, then the current bid plus the increment', () => {
    expect(decideBid(auction(), { bidder_id: 'b', amount: 1000 }, NOW)).toMatchObject({ accepted: true, current_bid: 1000, bid_count: 1 });
    expect(decideBid(auction(), { bidder_id: 'b', amount: 999 }, NOW)).toEqual({ accepted: false, reason: 'Bid must be at least $1,000' });
    const running = auction({ current_bid: 9_990, bid_count: 3 });
    expect(decideBid(running, { bidder_id: 'b', amount: 10_039 }, NOW)).toEqual({ accepted: false, reason: 'Bid must be at least $10,040' });
    expect(decideBid(running, { bidder_id: 'b', amount: 10_040 }, NOW)).toMatchObject({ accepted: true, bid_count: 4 });
  });

  it('refuses the seller, fixed-price listings, ended or inactive auctions and amounts that are not whole dollars', () => {
    expect(decideBid(auction(), { bidder_id: 'seller', amount: 5000 }, NOW)).toEqual({ accepted: false, reason: 'You cannot bid on your own listing' });
    expect(decideBid(auction({ listing_type: 'fixed' }), { bidder_id: 'b', amount: 5000 }, NOW).accepted).toBe(false);
    expect(decideBid(auction({ expires_at: NOW }), { bidder_id: 'b', amount: 5000 }, NOW)).toEqual({ accepted: false, reason: 'This auction is not accepting bids' });
    for (const status of ['paused', 'pending', 'sold', 'expired', 'draft'] as const) {
      expect(decideBid(auction({ status }), { bidder_id: 'b', amount: 5000 }, NOW).accepted).toBe(false);
    }
    for (const amount of [1000.5, -1, 0, Number.NaN, Infinity, 2_000_000_000]) {
      expect(decideBid(auction(), { bidder_id: 'b', amount }, NOW).accepted).toBe(false);
      expect(invalidAmount(amount)).not.toBeNull();
    }
  });

  it('moves the end to ten minutes after a bid in the final ten minutes, never earlier, and not when turned off', () => {
    expect(decideBid(auction({ expires_at: minutes(3) }), { bidder_id: 'b', amount: 1000 }, NOW)).toMatchObject({ extended: true, expires_at: minutes(10) });
    expect(decideBid(auction({ expires_at: minutes(11) }), { bidder_id: 'b', amount: 1000 }, NOW)).toMatchObject({ extended: false, expires_at: minutes(11) });
    expect(decideBid(auction({ expires_at: minutes(3) }), { bidder_id: 'b', amount: 1000 }, NOW, 0)).toMatchObject({ extended: false, expires_at: minutes(3) });
  });

  it('keeps a model auction consistent over any sequence of bids (property, 1,000 runs)', () => {
    const bidArb = fc.record({
      bidder_id: fc.constantFrom('seller', 'ann', 'bob', 'cid'),
      amount: fc.oneof(fc.integer({ min: -10, max: 300_000 }), fc.double({ min: 0, max: 300_000, noNaN: true })),
      after: fc.integer({ min: 0, max: 30 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200_000 }),
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 0, max: 15 }),
        fc.array(bidArb, { maxLength: 40 }),
        (starting, lifetimeMinutes, antiSniping, bids) => {
          let state = auction({ starting_price: starting, expires_at: minutes(lifetimeMinutes) });
          let clock = NOW.getTime();
          const accepted: number[] = [];
          for (const bid of bids) {
            clock += bid.after * 60_000;
            const at = new Date(clock);
            const before = state;
            const decision = decideBid(state, bid, at, antiSniping);
            if (!decision.accepted) continue;
            // Only real bids by others, while open, at or above the minimum, are taken.
            expect(bid.bidder_id).not.toBe('seller');
            expect(Number.isInteger(bid.amount)).toBe(true);
            expect(at.getTime()).toBeLessThan((before.expires_at as Date).getTime());
            expect(bid.amount).toBeGreaterThanOrEqual(minimumNextBid(before.starting_price, before.current_bid));
            // The end never moves earlier, and a late bid always leaves at least the soft-close window.
            expect((decision.expires_at as Date).getTime()).toBeGreaterThanOrEqual((before.expires_at as Date).getTime());
            if (antiSniping > 0) expect((decision.expires_at as Date).getTime() - at.getTime()).toBeGreaterThanOrEqual(antiSniping * 60_000);
            accepted.push(bid.amount);
            state = { ...state, current_bid: decision.current_bid, bid_count: decision.bid_count, expires_at: decision.expires_at };
          }
          // Accepted amounts strictly increase; the state holds the highest and the count.
          for (let i = 1; i < accepted.length; i += 1) expect(accepted[i]).toBeGreaterThan(accepted[i - 1]);
          expect(state.current_bid).toBe(accepted.length ? accepted[accepted.length - 1] : null);
          expect(state.bid_count).toBe(accepted.length);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('decideClose (D8)', () => {
  it('sells an auto auction to its highest bid when the reserve is met or absent', () => {
    expect(decideClose({ listing_type: 'auction', auction_type: 'auto', reserve_price: null }, { id: 'x', amount: 10 })).toEqual({ outcome: 'sold', winning_bid_id: 'x', amount: 10 });
    expect(decideClose({ listing_type: 'auction', auction_type: 'auto', reserve_price: 5000 }, { id: 'x', amount: 5000 })).toEqual({ outcome: 'sold', winning_bid_id: 'x', amount: 5000 });
  });

  it('lets it expire with no bids, a reserve not met, or a manual auction', () => {
    expect(decideClose({ listing_type: 'auction', auction_type: 'auto', reserve_price: null }, null)).toEqual({ outcome: 'expired', reason: 'no_bids' });
    expect(decideClose({ listing_type: 'auction', auction_type: 'auto', reserve_price: 5000 }, { id: 'x', amount: 4999 })).toEqual({ outcome: 'expired', reason: 'reserve_not_met' });
    expect(decideClose({ listing_type: 'auction', auction_type: 'manual', reserve_price: null }, { id: 'x', amount: 9000 })).toEqual({ outcome: 'expired', reason: 'manual' });
  });

  it('never sells a fixed-price listing by itself: its offers wait for the seller', () => {
    expect(decideClose({ listing_type: 'fixed', auction_type: 'auto', reserve_price: null }, { id: 'x', amount: 9000 })).toEqual({ outcome: 'expired', reason: 'manual' });
  });

  it('sells exactly when the model says so (property, 1,000 runs)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('auto' as const, 'manual' as const),
        fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: null }),
        fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: null }),
        (auctionType, reserve, highestAmount) => {
          const outcome = decideClose({ listing_type: 'auction', auction_type: auctionType, reserve_price: reserve }, highestAmount === null ? null : { id: 'h', amount: highestAmount });
          const shouldSell = auctionType === 'auto' && highestAmount !== null && (reserve === null || highestAmount >= reserve);
          expect(outcome.outcome === 'sold').toBe(shouldSell);
          if (outcome.outcome === 'sold') expect(outcome.amount).toBe(highestAmount);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
