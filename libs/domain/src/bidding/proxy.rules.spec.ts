import fc from 'fast-check';
import { bidIncrement, minimumNextBid } from './increment.rules';
import { replayProxyBids, type ProxyStep } from './proxy-reference.rules';
import { maximumRaiseRefusal, NO_MAXIMUM_ON_MANUAL, NO_MAXIMUM_ON_OFFERS, type ProxyBidAttempt, type ProxyBidDecision } from './proxy.rules';
import { NOW, SimulatedAuction } from './testing/proxy-auction.simulation';

const accepted = (decision: ProxyBidDecision) => {
  if (!decision.accepted) throw new Error(`refused: ${decision.reason}`);
  return decision;
};
const bid = (bidder_id: string, amount: number, max_amount: number | null = null): ProxyBidAttempt => ({ bidder_id, amount, max_amount });
const publicBids = (d: ProxyBidDecision) => (d.accepted ? d.bids.map((b) => [b.bidder_id, b.amount, b.automatic, b.previous_leader_id]) : []);

describe('decideProxyBid: examples (ADR 0055)', () => {
  it('a bidder below an earlier maximum is outbid at once: the price is their bid plus its increment', () => {
    const sale = new SimulatedAuction({ starting_price: 100, reserve_price: null });
    expect(publicBids(sale.place(bid('ann', 100, 1000)))).toEqual([['ann', 100, false, null]]);
    const bob = accepted(sale.place(bid('bob', 200)));
    expect(publicBids(bob)).toEqual([['bob', 200, false, null], ['ann', 205, true, null]]);
    expect(bob).toMatchObject({ current_bid: 205, leading: false, leader_id: 'ann', price_changed: true, bid_count: 3 });
  });

  it('a maximum above the leader takes the lead at one increment over it; the typed bid stays in the history', () => {
    const sale = new SimulatedAuction({ starting_price: 100, reserve_price: null });
    sale.place(bid('ann', 100, 1000));
    const bob = accepted(sale.place(bid('bob', 105, 2000)));
    expect(publicBids(bob)).toEqual([['bob', 105, false, 'ann'], ['bob', 1050, true, null]]);
    expect(bob).toMatchObject({ current_bid: 1050, leading: true, caller_maximum: { max_amount: 2000, raised: true, proxy: true } });
  });

  it('a typed bid above the leader stands as the price even when one increment would do', () => {
    const sale = new SimulatedAuction({ starting_price: 100, reserve_price: null });
    sale.place(bid('ann', 100, 300));
    const bob = accepted(sale.place(bid('bob', 900)));
    expect(publicBids(bob)).toEqual([['bob', 900, false, 'ann']]);
    expect(bob.current_bid).toBe(900);
  });

  it('on equal maximums the earlier one leads, whether typed or set as a maximum', () => {
    const typed = new SimulatedAuction({ starting_price: 100, reserve_price: null });
    typed.place(bid('ann', 100, 500));
    expect(publicBids(typed.place(bid('bob', 500)))).toEqual([['bob', 500, false, null], ['ann', 500, true, null]]);
    expect(typed.closeWinner()?.bidder_id).toBe('ann');
    const maximum = new SimulatedAuction({ starting_price: 100, reserve_price: null });
    maximum.place(bid('ann', 100, 500));
    expect(accepted(maximum.place(bid('bob', 105, 500)))).toMatchObject({ current_bid: 500, leading: false, leader_id: 'ann' });
    expect(maximum.closeWinner()).toMatchObject({ bidder_id: 'ann', amount: 500, automatic: true });
  });

  it('the price rises to the reserve once the leading maximum reaches it, and not before', () => {
    const met = new SimulatedAuction({ starting_price: 100, reserve_price: 800 });
    expect(publicBids(met.place(bid('ann', 100, 1000)))).toEqual([['ann', 100, false, null], ['ann', 800, true, null]]);
    const short = new SimulatedAuction({ starting_price: 100, reserve_price: 800 });
    expect(accepted(short.place(bid('ann', 100, 799))).current_bid).toBe(100);
    // A runner-up above the reserve prices above it, capped at the leader's maximum.
    expect(accepted(met.place(bid('bob', 850, 998)))).toMatchObject({ current_bid: 1000, leader_id: 'ann' });
  });

  it('never prices under the starting price, nor a lone maximum above it', () => {
    const sale = new SimulatedAuction({ starting_price: 5000, reserve_price: null });
    expect(sale.place(bid('ann', 4999, 9000))).toEqual({ accepted: false, reason: 'Bid must be at least $5,000' });
    expect(accepted(sale.place(bid('ann', 5000, 9000))).current_bid).toBe(5000);
  });

  it('the leader raises their own maximum without moving the price or the end; a lower or equal one is refused', () => {
    const sale = new SimulatedAuction({ starting_price: 100, reserve_price: null }, { expires_at: new Date(NOW.getTime() + 60_000) });
    sale.place(bid('ann', 100, 300));
    sale.place(bid('bob', 200));
    const end = sale.auction.expires_at;
    const raise = accepted(sale.place(bid('ann', 205, 2000), 10));
    expect(raise).toMatchObject({ bids: [], current_bid: 205, price_changed: false, extended: false, leading: true, expires_at: end });
    expect(raise.caller_maximum).toEqual({ max_amount: 2000, raised: true, proxy: true });
    expect(sale.place(bid('ann', 205, 2000))).toEqual({ accepted: false, reason: 'Your maximum bid is already $2,000: enter a higher maximum to raise it' });
    // A typed amount over the minimum is a bid: it moves the price, and soft close with it.
    expect(accepted(sale.place(bid('ann', 400, 2000), 10))).toMatchObject({ current_bid: 400, extended: true, bids: [{ amount: 400, automatic: false }] });
  });

  it('raising a maximum that capped the price lets it rise to the runner-up plus the increment', () => {
    const sale = new SimulatedAuction({ starting_price: 100, reserve_price: null });
    sale.place(bid('ann', 100, 500));
    sale.place(bid('bob', 105, 500));
    expect(sale.auction.current_bid).toBe(500);
    expect(publicBids(sale.place(bid('ann', 500, 1000)))).toEqual([['ann', 505, true, null]]);
  });

  it('refuses a maximum on an offer, on a manual auction, and under the amount', () => {
    const fixed = new SimulatedAuction({ starting_price: 100, reserve_price: null }, { listing_type: 'fixed' });
    expect(fixed.place(bid('ann', 100, 200))).toEqual({ accepted: false, reason: NO_MAXIMUM_ON_OFFERS });
    const manual = new SimulatedAuction({ starting_price: 100, reserve_price: null }, { auction_type: 'manual' });
    expect(manual.place(bid('ann', 100, 200))).toEqual({ accepted: false, reason: NO_MAXIMUM_ON_MANUAL });
    expect(new SimulatedAuction({ starting_price: 100, reserve_price: null }).place(bid('ann', 200, 150))).toEqual({
      accepted: false,
      reason: 'Your maximum bid must be at least your bid',
    });
  });

  it('plain bids on a manual auction behave as before: each leads at its amount and names the leader it passed', () => {
    const sale = new SimulatedAuction({ starting_price: 100, reserve_price: null }, { auction_type: 'manual' });
    expect(publicBids(sale.place(bid('ann', 100)))).toEqual([['ann', 100, false, null]]);
    expect(publicBids(sale.place(bid('bob', 150)))).toEqual([['bob', 150, false, 'ann']]);
    expect(publicBids(sale.place(bid('bob', 200)))).toEqual([['bob', 200, false, null]]);
  });

  it('soft close: a bid that changes the price in the final minutes moves the end', () => {
    const sale = new SimulatedAuction({ starting_price: 100, reserve_price: null }, { expires_at: new Date(NOW.getTime() + 60_000) });
    sale.place(bid('ann', 100, 1000));
    expect(accepted(sale.place(bid('bob', 200), 10))).toMatchObject({ extended: true, expires_at: new Date(NOW.getTime() + 600_000) });
  });
});

type Mode = 'min' | 'above' | 'under' | 'leaderMax' | 'maxOnly';
const stepArb = fc.record({
  bidder: fc.constantFrom('ann', 'bob', 'cat', 'dan'),
  mode: fc.constantFrom<Mode>('min', 'above', 'under', 'leaderMax', 'maxOnly'),
  steps: fc.integer({ min: 0, max: 6 }),
  // Maximums on a coarse grid, so that equal maximums (ties) are common.
  max: fc.option(fc.integer({ min: 1, max: 60 }).map((k) => k * 50), { nil: null }),
  remove: fc.integer({ min: 0, max: 15 }).map((n) => n === 0),
});
type Step = { bidder: string; mode: Mode; steps: number; max: number | null; remove: boolean };
const termsArb = fc.record({
  starting_price: fc.oneof(fc.constantFrom(1, 100, 995, 1000), fc.integer({ min: 1, max: 3000 })),
  reserve_price: fc.option(fc.integer({ min: 1, max: 4000 }), { nil: null }),
});

/** The attempt a generated step stands for, against the auction as it is now. */
function attemptFor(sale: SimulatedAuction, step: Step): ProxyBidAttempt {
  const minimum = minimumNextBid(sale.auction.starting_price, sale.auction.current_bid);
  const leaderMax = sale.ranked()[0]?.max_amount;
  const amount = {
    min: minimum,
    above: minimum + step.steps * bidIncrement(minimum),
    under: Math.max(1, minimum - 1 - step.steps),
    leaderMax: leaderMax ?? minimum,
    maxOnly: sale.auction.current_bid ?? sale.auction.starting_price,
  }[step.mode];
  return { bidder_id: step.bidder, amount, max_amount: step.max === null ? null : Math.max(amount, step.max) };
}

describe('maximumRaiseRefusal (ADR 0055, ADR 0060)', () => {
  it('refuses a maximum that is not above the one held, naming it, and takes any higher one', () => {
    expect(maximumRaiseRefusal(2000, 2000)).toBe('Your maximum bid is already $2,000: enter a higher maximum to raise it');
    expect(maximumRaiseRefusal(2000, 1500)).toBe('Your maximum bid is already $2,000: enter a higher maximum to raise it');
    expect(maximumRaiseRefusal(2000, 2001)).toBeNull();
  });
});

describe('proxy bidding properties (ADR 0055)', () => {
  it('after every step the price, the leader and what is taken equal the reference model recomputed from scratch', () => {
    fc.assert(
      fc.property(termsArb, fc.array(stepArb, { maxLength: 40 }), (terms, steps) => {
        const sale = new SimulatedAuction(terms);
        const replayed: ProxyStep[] = [];
        for (const step of steps) {
          if (step.remove) {
            sale.remove(step.bidder);
            replayed.push({ kind: 'remove', bidder_id: step.bidder });
          } else {
            const attempt = attemptFor(sale, step);
            const decision = sale.place(attempt);
            replayed.push({ kind: 'bid', ...attempt });
            expect(decision.accepted).toBe(replayProxyBids(terms, replayed).accepted.at(-1));
          }
          const reference = replayProxyBids(terms, replayed);
          expect([sale.auction.current_bid, sale.leader()]).toEqual([reference.price, reference.leader_id]);
          // The close sells to the leader at the price; the count is the standing bids.
          const winner = sale.closeWinner();
          expect(winner ? [winner.bidder_id, winner.amount] : null).toEqual(reference.leader_id ? [reference.leader_id, reference.price] : null);
          expect(sale.auction.bid_count).toBe(sale.bids.length);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('the price never exceeds the leading maximum nor falls under the starting price', () => {
    fc.assert(
      fc.property(termsArb, fc.array(stepArb, { maxLength: 40 }), (terms, steps) => {
        const sale = new SimulatedAuction(terms);
        for (const step of steps) {
          if (step.remove) sale.remove(step.bidder);
          else sale.place(attemptFor(sale, step));
          const leader = sale.ranked()[0];
          if (!leader) continue;
          expect(sale.auction.current_bid).toBeLessThanOrEqual(leader.max_amount);
          expect(sale.auction.current_bid).toBeGreaterThanOrEqual(terms.starting_price);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('no maximum leaks: every public amount is the amount its bidder typed or the price, and the lead changes hands only when a maximum is passed', () => {
    fc.assert(
      fc.property(termsArb, fc.array(stepArb, { maxLength: 40 }), (terms, steps) => {
        const sale = new SimulatedAuction(terms);
        for (const step of steps.filter((s) => !s.remove)) {
          const before = sale.leader();
          const attempt = attemptFor(sale, step);
          const decision = sale.place(attempt);
          if (!decision.accepted) continue;
          const shown = new Set([decision.current_bid, ...decision.bids.map((b) => b.amount)]);
          for (const b of decision.bids) {
            if (b.automatic) expect(b.amount).toBe(decision.current_bid);
            else expect([b.bidder_id, b.amount]).toEqual([attempt.bidder_id, attempt.amount]);
          }
          for (const [, row] of sale.rows) {
            if (row.max_amount !== decision.current_bid && row.max_amount !== attempt.amount) expect(shown.has(row.max_amount)).toBe(false);
          }
          const handedOver = decision.bids.filter((b) => b.previous_leader_id !== null).map((b) => b.previous_leader_id);
          expect(handedOver).toEqual(before !== null && before !== sale.leader() ? [before] : []);
          expect(decision.extended).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});
