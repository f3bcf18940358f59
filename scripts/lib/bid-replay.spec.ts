import * as rules from '@market/domain';
// @ts-expect-error plain ESM script without type declarations
import { lockOrder, replayAuction } from './bid-replay.mjs';

// ADR 0055's example: start $100; Ann bids $100 up to $1,000 (price $100); Bob types $200 and Ann's maximum answers
// at once: Bob's typed $200, then Ann's automatic $205. Then Ann, leading, raises her maximum to $2,000 (nothing recorded).
const auction = { listing_id: 'l1', seller_id: 'seller', listing_type: 'auction', auction_type: 'auto', starting_price: 100, reserve_price: null, current_bid: 205, bid_count: 3, expires_at: new Date(Date.now() + 86_400_000) };
const stored = [
  { id: 'b1', bidder_id: 'ann', amount: 100, automatic: false },
  { id: 'b2', bidder_id: 'bob', amount: 200, automatic: false },
  { id: 'b3', bidder_id: 'ann', amount: 205, automatic: true },
];
const step = (id: string, bidderId: string, typed: number, maxAmount: number | null, currentBid: number, bidCount: number, answeredAt: number, raisedOnly = false) => ({
  id, listingId: 'l1', bidderId, typed, maxAmount, currentBid, bidCount, raisedOnly, answeredAt,
});
const steps = [
  step('b1', 'ann', 100, 1000, 100, 1, 1),
  step('b2', 'bob', 200, null, 205, 3, 2),
  // The raise answers after Bob's bid but reports the same count: it must be put after the bid that reached it.
  step('b3', 'ann', 205, 2000, 205, 3, 3, true),
];

describe('bench:bids proxy replay', () => {
  it('matches typed and automatic bids to the rule, whatever order the answers arrived in', () => {
    const result = replayAuction(auction, stored, [steps[2], steps[0], steps[1]], rules);
    expect(result).toMatchObject({ problem: null, typed: 2, automatic: 1 });
    expect(result.reference).toMatchObject({ price: 205, leader_id: 'ann' });
  });

  it('puts a raise that recorded nothing after the bid that reached its count', () => {
    expect(lockOrder([steps[2], steps[1], steps[0]]).map((s: { id: string }) => s.id)).toEqual(['b1', 'b2', 'b3']);
  });

  it('finds an automatic bid at a price the rule does not set', () => {
    const wrong = [...stored.slice(0, 2), { ...stored[2], amount: 210 }];
    expect(replayAuction({ ...auction, current_bid: 210 }, wrong, steps, rules).problem).toMatch(/stored bid 3 is automatic \$210, the rule records automatic \$205/);
  });

  it('finds a stored bid no 2xx answer accounts for', () => {
    const extra = [...stored, { id: 'b4', bidder_id: 'bob', amount: 210, automatic: true }];
    expect(replayAuction({ ...auction, current_bid: 210, bid_count: 4 }, extra, steps, rules).problem).toBe('1 stored bids after the last 2xx answer\'s');
  });

  it('finds a 2xx answer whose price differs from the rule\'s', () => {
    const told = [steps[0], { ...steps[1], currentBid: 200 }, steps[2]];
    expect(replayAuction(auction, stored, told, rules).problem).toMatch(/answered price 200 and count 3, the rule gives 205 and 3/);
  });
});
