import fc from 'fast-check';
import { minimumNextBid } from './increment.rules';
import { repriceAuction, type StandingBid } from './reprice.rules';

const at = (second: number) => new Date(Date.UTC(2026, 10, 25, 12, 0, second));
const bid = (id: string, amount: number, second = 0, bidder = `u-${id}`): StandingBid => ({ id, bidder_id: bidder, amount, created_at: at(second) });
const terms = { starting_price: 1000, reserve_price: null as number | null };

describe('repriceAuction (ADR 0038)', () => {
  it('with no bid left: no price, no leader, the starting price next; the reserve is met only when there is none', () => {
    expect(repriceAuction(terms, [])).toEqual({ current_bid: null, bid_count: 0, leader: null, reserve_met: true, minimum_next_bid: 1000 });
    expect(repriceAuction({ starting_price: 1000, reserve_price: 5000 }, [])).toMatchObject({ current_bid: null, reserve_met: false, minimum_next_bid: 1000 });
  });

  it('falls back to the next highest bid when the leader is gone, whatever order the bids come in', () => {
    const left = [bid('a', 1000, 1), bid('c', 1100, 3), bid('b', 1050, 2)];
    expect(repriceAuction(terms, left)).toEqual({
      current_bid: 1100,
      bid_count: 3,
      leader: { bid_id: 'c', bidder_id: 'u-c' },
      reserve_met: true,
      minimum_next_bid: 1150,
    });
  });

  it('meets the reserve exactly at it and not a dollar below', () => {
    const reserve = { starting_price: 1000, reserve_price: 1100 };
    expect(repriceAuction(reserve, [bid('a', 1100)]).reserve_met).toBe(true);
    expect(repriceAuction(reserve, [bid('a', 1099)]).reserve_met).toBe(false);
  });

  it('of equal amounts the earliest leads, as at the close (D8)', () => {
    expect(repriceAuction(terms, [bid('late', 2000, 9), bid('early', 2000, 1)]).leader?.bid_id).toBe('early');
  });

  it('ignores a bid below the starting price', () => {
    expect(repriceAuction(terms, [bid('low', 999), bid('ok', 1000)])).toMatchObject({ current_bid: 1000, bid_count: 1, leader: { bid_id: 'ok' } });
  });

  const standing = fc.uniqueArray(
    fc.record({ amount: fc.integer({ min: 1, max: 200_000 }), second: fc.integer({ min: 0, max: 59 }) }),
    { maxLength: 30, selector: (b) => `${b.amount}:${b.second}` },
  );
  const anyTerms = fc.record({ starting_price: fc.integer({ min: 1, max: 100_000 }), reserve_price: fc.option(fc.integer({ min: 1, max: 200_000 })) });

  it('always: the price is the highest valid standing bid, the count the valid bids, the leader holds the price', () => {
    fc.assert(
      fc.property(anyTerms, standing, (t, raw) => {
        const bids = raw.map((b, i) => bid(`b${i}`, b.amount, b.second));
        const valid = bids.filter((b) => b.amount >= t.starting_price);
        const result = repriceAuction(t, bids);
        expect(result.bid_count).toBe(valid.length);
        expect(result.current_bid).toBe(valid.length === 0 ? null : Math.max(...valid.map((b) => b.amount)));
        if (result.current_bid !== null) {
          expect(result.current_bid).toBeGreaterThanOrEqual(t.starting_price);
          const lead = bids.find((b) => b.id === result.leader?.bid_id);
          expect(lead?.amount).toBe(result.current_bid);
          // No equal bid came earlier.
          expect(valid.some((b) => b.amount === result.current_bid && b.created_at < (lead as StandingBid).created_at)).toBe(false);
        } else {
          expect(result.leader).toBeNull();
        }
        expect(result.reserve_met).toBe(t.reserve_price === null || (result.current_bid !== null && result.current_bid >= t.reserve_price));
        expect(result.minimum_next_bid).toBe(minimumNextBid(t.starting_price, result.current_bid));
      }),
    );
  });

  it('always: removing bids never raises the price or the count, and removing a non-leader changes neither price nor leader', () => {
    fc.assert(
      fc.property(anyTerms, standing, fc.nat(), (t, raw, pick) => {
        const bids = raw.map((b, i) => bid(`b${i}`, b.amount, b.second));
        const before = repriceAuction(t, bids);
        if (bids.length === 0) return;
        const removed = bids[pick % bids.length];
        const after = repriceAuction(t, bids.filter((b) => b !== removed));
        expect(after.bid_count).toBeLessThanOrEqual(before.bid_count);
        expect(after.current_bid ?? 0).toBeLessThanOrEqual(before.current_bid ?? 0);
        if (before.leader?.bid_id !== removed.id) {
          expect(after.current_bid).toBe(before.current_bid);
          expect(after.leader).toEqual(before.leader);
        }
      }),
    );
  });

  it('always: the order of the standing bids does not matter', () => {
    fc.assert(
      fc.property(anyTerms, standing, (t, raw) => {
        const bids = raw.map((b, i) => bid(`b${i}`, b.amount, b.second));
        expect(repriceAuction(t, [...bids].reverse())).toEqual(repriceAuction(t, bids));
      }),
    );
  });
});
