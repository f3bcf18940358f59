import fc from 'fast-check';
import { askingPrice, buyNowPrice, buyNowRefusal, decideBidAction, offerRefusal, pendingBidLapsed, type OfferTerms, type SaleState } from './offer-and-action.rules';
import { decideClose } from './bid.rules';

const NOW = new Date('2026-11-23T12:00:00Z');
const DAY = 24 * 3600_000;
const fixed = (overrides: Partial<OfferTerms> = {}): OfferTerms => ({
  seller_id: 'seller',
  listing_type: 'fixed',
  status: 'active',
  expires_at: new Date(NOW.getTime() + 10 * DAY),
  starting_price: 8000,
  buy_now_price: 8000,
  ...overrides,
});
const sale = (overrides: Partial<SaleState> = {}): SaleState => ({ seller_id: 'seller', status: 'active', closed_at: null, winning_bid_id: null, ...overrides });

describe('offerRefusal (D5)', () => {
  it('takes a whole-dollar offer up to the asking price from a buyer while the listing is live', () => {
    expect(offerRefusal(fixed(), { bidder_id: 'b', amount: 6500 }, NOW)).toBeNull();
    expect(offerRefusal(fixed(), { bidder_id: 'b', amount: 8000 }, NOW)).toBeNull();
    expect(offerRefusal(fixed(), { bidder_id: 'b', amount: 1 }, NOW)).toBeNull();
  });

  it('refuses the seller, auctions, ended or paused listings, amounts above the asking price and fractions', () => {
    expect(offerRefusal(fixed(), { bidder_id: 'seller', amount: 6500 }, NOW)).toBe('You cannot make an offer on your own listing');
    expect(offerRefusal(fixed({ listing_type: 'auction' }), { bidder_id: 'b', amount: 6500 }, NOW)).toBe('This listing is an auction: place a bid instead');
    expect(offerRefusal(fixed({ status: 'paused' }), { bidder_id: 'b', amount: 6500 }, NOW)).toBe('This listing is not accepting offers');
    expect(offerRefusal(fixed({ expires_at: new Date(NOW.getTime() - 1) }), { bidder_id: 'b', amount: 6500 }, NOW)).toBe('This listing is not accepting offers');
    expect(offerRefusal(fixed(), { bidder_id: 'b', amount: 8001 }, NOW)).toBe('Offer cannot be above the asking price of $8,000');
    expect(offerRefusal(fixed(), { bidder_id: 'b', amount: 10.5 }, NOW)).toBe('Offer amount must be a whole number of dollars, at least $1');
  });

  it('asks the buy-now price, else the starting price', () => {
    expect(askingPrice({ buy_now_price: 9000, starting_price: 8000 })).toBe(9000);
    expect(askingPrice({ buy_now_price: null, starting_price: 8000 })).toBe(8000);
  });
});

describe('decideBidAction (D5, D8)', () => {
  // Who may act (the seller only) is bidding-service's policy: auctions/bidding.policy.spec.ts.
  it('decides only pending bids', () => {
    expect(decideBidAction(sale(), { status: 'rejected' }, 'accept', NOW)).toEqual({ allowed: false, status: 400, reason: 'This bid has already been rejected' });
    expect(decideBidAction(sale(), { status: 'accepted' }, 'reject', NOW)).toEqual({ allowed: false, status: 400, reason: 'This bid has already been accepted' });
  });

  it('always lets the seller reject a pending bid', () => {
    for (const status of ['active', 'paused', 'expired', 'sold'] as const) {
      expect(decideBidAction(sale({ status, closed_at: new Date(NOW.getTime() - 30 * DAY) }), { status: 'pending' }, 'reject', NOW)).toEqual({ allowed: true, sale: null });
    }
  });

  it('accepts while live or paused, and within 7 days after an unsold end, never after a sale', () => {
    expect(decideBidAction(sale(), { status: 'pending' }, 'accept', NOW)).toEqual({ allowed: true, sale: 'bid_accepted' });
    expect(decideBidAction(sale({ status: 'paused' }), { status: 'pending' }, 'accept', NOW)).toEqual({ allowed: true, sale: 'bid_accepted' });
    const ended = (days: number) => sale({ status: 'expired', closed_at: new Date(NOW.getTime() - days * DAY) });
    expect(decideBidAction(ended(6.9), { status: 'pending' }, 'accept', NOW)).toEqual({ allowed: true, sale: 'accepted_after_close' });
    expect(decideBidAction(ended(7), { status: 'pending' }, 'accept', NOW)).toEqual({ allowed: false, status: 400, reason: 'This bid can no longer be accepted' });
    expect(decideBidAction(sale({ status: 'sold', winning_bid_id: 'w' }), { status: 'pending' }, 'accept', NOW)).toEqual({
      allowed: false,
      status: 400,
      reason: 'This listing has already been sold',
    });
    // Back in review or draft with its bids standing: the sale has not ended, so the seller may still sell.
    expect(decideBidAction(sale({ status: 'pending' }), { status: 'pending' }, 'accept', NOW)).toEqual({ allowed: true, sale: 'bid_accepted' });
    expect(decideBidAction(sale({ status: 'draft' }), { status: 'pending' }, 'accept', NOW)).toEqual({ allowed: true, sale: 'bid_accepted' });
    expect(decideBidAction(sale({ status: 'deleted' }), { status: 'pending' }, 'accept', NOW)).toEqual({ allowed: false, status: 400, reason: 'This listing no longer exists' });
  });

  it('lapses pending bids exactly 7 days after the end', () => {
    expect(pendingBidLapsed(new Date(NOW.getTime() - 7 * DAY + 1), NOW)).toBe(false);
    expect(pendingBidLapsed(new Date(NOW.getTime() - 7 * DAY), NOW)).toBe(true);
  });
});

/** A small model of one sale: bids, seller decisions, and the close that may run more than once. */
type Op = { kind: 'bid'; amount: number } | { kind: 'accept' | 'reject'; pick: number } | { kind: 'close' } | { kind: 'wait'; days: number };

describe('one winner whatever the order (property against a model, 1,000 runs)', () => {
  it('never accepts two bids, never accepts after a sale, and a repeated close changes nothing', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('bid' as const), amount: fc.integer({ min: 1, max: 20_000 }) }),
      fc.record({ kind: fc.constantFrom('accept' as const, 'reject' as const), pick: fc.nat(30) }),
      fc.constant({ kind: 'close' as const }),
      fc.record({ kind: fc.constant('wait' as const), days: fc.integer({ min: 0, max: 9 }) }),
    );
    fc.assert(
      fc.property(fc.constantFrom('auto' as const, 'manual' as const), fc.option(fc.integer({ min: 1, max: 20_000 }), { nil: null }), fc.array(op, { maxLength: 40 }), (auctionType, reserve, ops: Op[]) => {
        let now = NOW.getTime();
        const state: SaleState = { seller_id: 'seller', status: 'active', closed_at: null, winning_bid_id: null };
        const bids: { id: string; amount: number; status: 'pending' | 'accepted' | 'rejected' }[] = [];
        const close = () => {
          if (state.status !== 'active') return;
          const pending = bids.filter((b) => b.status === 'pending').sort((a, b) => b.amount - a.amount)[0] ?? null;
          const outcome = decideClose({ listing_type: 'auction', auction_type: auctionType, reserve_price: reserve }, pending);
          state.closed_at = new Date(now);
          if (outcome.outcome === 'sold') {
            state.status = 'sold';
            state.winning_bid_id = outcome.winning_bid_id;
            for (const b of bids) b.status = b.id === outcome.winning_bid_id ? 'accepted' : b.status === 'pending' ? 'rejected' : b.status;
          } else state.status = 'expired';
        };
        for (const step of ops) {
          if (step.kind === 'bid' && state.status === 'active') bids.push({ id: `b${bids.length}`, amount: step.amount, status: 'pending' });
          if (step.kind === 'wait') now += step.days * DAY;
          if (step.kind === 'close') {
            const before = JSON.stringify({ state, bids });
            close();
            const once = JSON.stringify({ state, bids });
            close();
            expect(JSON.stringify({ state, bids })).toBe(once);
            if (before !== once) expect(state.status).not.toBe('active');
          }
          if ((step.kind === 'accept' || step.kind === 'reject') && bids.length > 0) {
            const bid = bids[step.pick % bids.length];
            const decision = decideBidAction(state, bid, step.kind, new Date(now));
            if (!decision.allowed) continue;
            if (step.kind === 'reject') bid.status = 'rejected';
            else {
              bid.status = 'accepted';
              state.status = 'sold';
              state.winning_bid_id = bid.id;
              for (const other of bids) if (other.status === 'pending') other.status = 'rejected';
            }
          }
          expect(bids.filter((b) => b.status === 'accepted').length).toBeLessThanOrEqual(1);
          if (state.winning_bid_id) expect(bids.find((b) => b.status === 'accepted')?.id).toBe(state.winning_bid_id);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('buyNowRefusal (D4)', () => {
  const auction = { seller_id: 'seller', listing_type: 'auction' as const, status: 'active' as const, expires_at: new Date(NOW.getTime() + DAY), starting_price: 1000, current_bid: null, buy_now_price: 3000 };

  it('buys an auction at its buy-now price and a fixed listing at its price, below $5,000', () => {
    expect(buyNowRefusal(auction, 'b', NOW)).toBeNull();
    expect(buyNowPrice(auction)).toBe(3000);
    const fixedListing = { ...auction, listing_type: 'fixed' as const, starting_price: 4999, buy_now_price: null };
    expect(buyNowRefusal(fixedListing, 'b', NOW)).toBeNull();
    expect(buyNowPrice(fixedListing)).toBe(4999);
  });

  it('refuses the seller, ended or paused listings, no price, $5,000 and up, and bidding past the price', () => {
    expect(buyNowRefusal(auction, 'seller', NOW)).toBe('You cannot buy your own listing');
    expect(buyNowRefusal({ ...auction, status: 'paused' }, 'b', NOW)).toBe('This listing is no longer available');
    expect(buyNowRefusal({ ...auction, expires_at: new Date(NOW.getTime() - 1) }, 'b', NOW)).toBe('This listing is no longer available');
    expect(buyNowRefusal({ ...auction, buy_now_price: null }, 'b', NOW)).toBe('This listing has no buy now price');
    expect(buyNowRefusal({ ...auction, buy_now_price: 5000 }, 'b', NOW)).toBe('Purchases from $5,000 are completed through escrow: contact the seller');
    expect(buyNowRefusal({ ...auction, current_bid: 3000 }, 'b', NOW)).toBe('Bidding has passed the buy now price');
    expect(buyNowRefusal({ ...auction, current_bid: 2950 }, 'b', NOW)).toBeNull();
  });
});
