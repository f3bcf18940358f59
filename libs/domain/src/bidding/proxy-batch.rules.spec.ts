import fc from 'fast-check';
import { bidIncrement, minimumNextBid } from './increment.rules';
import { ProxyBatch, type ProxyBatchMaximum } from './proxy-batch.rules';
import type { ProxyBidAttempt } from './proxy.rules';
import { NOW, SimulatedAuction } from './testing/proxy-auction.simulation';

const BIDDERS = ['ann', 'bob', 'cat', 'dan', 'eve', 'fay'];
type Mode = 'min' | 'above' | 'under' | 'maxOnly';
const stepArb = fc.record({
  bidder: fc.constantFrom(...BIDDERS),
  mode: fc.constantFrom<Mode>('min', 'above', 'under', 'maxOnly'),
  steps: fc.integer({ min: 0, max: 6 }),
  // Maximums on a coarse grid, so that equal maximums (ties) are common.
  max: fc.option(fc.integer({ min: 1, max: 60 }).map((k) => k * 50), { nil: null }),
});
type Step = { bidder: string; mode: Mode; steps: number; max: number | null };
const termsArb = fc.record({
  starting_price: fc.oneof(fc.constantFrom(1, 100, 1000), fc.integer({ min: 1, max: 3000 })),
  reserve_price: fc.option(fc.integer({ min: 1, max: 4000 }), { nil: null }),
});

function attemptFor(sale: SimulatedAuction, step: Step): ProxyBidAttempt {
  const minimum = minimumNextBid(sale.auction.starting_price, sale.auction.current_bid);
  const amount = {
    min: minimum,
    above: minimum + step.steps * bidIncrement(minimum),
    under: Math.max(1, minimum - 1 - step.steps),
    maxOnly: sale.auction.current_bid ?? sale.auction.starting_price,
  }[step.mode];
  return { bidder_id: step.bidder, amount, max_amount: step.max === null ? null : Math.max(amount, step.max) };
}

/** What one batch read gives: the two highest standing maximums and each caller's own, ranked by set time. */
function seedFrom(sale: SimulatedAuction, callers: Set<string>): ProxyBatchMaximum[] {
  const standing = sale.ranked();
  const bySetTime = [...standing].sort((a, b) => a.set_at.getTime() - b.set_at.getTime());
  return standing
    .filter((m, index) => index < 2 || callers.has(m.bidder_id))
    .map((m) => ({ ...m, proxy: sale.rows.get(m.bidder_id)!.proxy, order: bySetTime.indexOf(m) }));
}

describe('ProxyBatch (ADR 0058)', () => {
  it('decides every bid of a batch as one-by-one placement does, reading the standing maximums once', () => {
    fc.assert(
      fc.property(termsArb, fc.array(stepArb, { maxLength: 20 }), fc.array(stepArb, { minLength: 1, maxLength: 30 }), (terms, before, steps) => {
        const sale = new SimulatedAuction(terms);
        for (const step of before) sale.place(attemptFor(sale, step));
        const batch = new ProxyBatch(sale.auction, seedFrom(sale, new Set(steps.map((s) => s.bidder))));
        for (const step of steps) {
          const attempt = attemptFor(sale, step);
          const fromBatch = batch.decide(attempt, NOW, 0);
          expect(fromBatch).toEqual(sale.place(attempt));
          expect(batch.auction).toEqual(sale.auction);
          const own = sale.rows.get(attempt.bidder_id)!;
          if (fromBatch.accepted) expect(batch.maximumOf(attempt.bidder_id)).toMatchObject({ max_amount: own.max_amount, proxy: own.proxy });
        }
        expect(batch.standing('nobody').leader?.bidder_id ?? null).toBe(sale.leader());
      }),
      { numRuns: 200 },
    );
  });

  it('a refused bid changes nothing; a raised maximum ranks after every maximum set before it', () => {
    const sale = new SimulatedAuction({ starting_price: 100, reserve_price: null });
    const batch = new ProxyBatch(sale.auction, []);
    expect(batch.decide({ bidder_id: 'ann', amount: 50, max_amount: null }, NOW, 0)).toMatchObject({ accepted: false });
    expect(batch.auction).toEqual(sale.auction);
    batch.decide({ bidder_id: 'ann', amount: 100, max_amount: 500 }, NOW, 0);
    const bob = batch.decide({ bidder_id: 'bob', amount: 105, max_amount: 500 }, NOW, 0);
    // Equal maximums: Ann's was set first, so she answers Bob at once at $500.
    expect(bob).toMatchObject({ accepted: true, leader_id: 'ann', current_bid: 500, leading: false });
    expect(batch.standing('bob')).toMatchObject({ leader: { bidder_id: 'ann' }, runner_up: { bidder_id: 'bob' }, caller: { bidder_id: 'bob', proxy: true } });
  });
});
