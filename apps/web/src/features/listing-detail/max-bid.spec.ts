import { PlaceBidSchema } from '@market/contracts';
import { BID_SUCCESS, checkBidAmount } from './bid-form';
import { bidOutcome, checkMaxAmount, MAX_BID_RULE, offersMaxBid, placeBidBody, readAmountForm } from './max-bid';

const ID = '0b6f6f4e-3c1a-4c55-9a55-7f1b6f8f2c11';
const bid = { listing_id: ID, amount: 2000 };

describe('offersMaxBid (ADR 0055)', () => {
  it('offers "Bid up to" on automatic auctions only', () => {
    expect(offersMaxBid({ listing_type: 'auction', auction_type: 'auto' })).toBe(true);
    expect(offersMaxBid({ listing_type: 'auction', auction_type: 'manual' })).toBe(false);
    expect(offersMaxBid({ listing_type: 'fixed', auction_type: 'auto' })).toBe(false);
  });
});

describe('checkMaxAmount', () => {
  it('treats an empty field as no maximum', () => {
    expect(checkMaxAmount('', bid)).toEqual({ ok: true, max_amount: undefined });
    expect(checkMaxAmount('   ', bid)).toEqual({ ok: true, max_amount: undefined });
  });

  it('accepts whole dollars from the bid up', () => {
    expect(checkMaxAmount('2000', bid)).toEqual({ ok: true, max_amount: 2000 });
    expect(checkMaxAmount(' 3500 ', bid)).toEqual({ ok: true, max_amount: 3500 });
    expect(checkMaxAmount('3500.0', bid)).toEqual({ ok: true, max_amount: 3500 });
  });

  it('words every refusal as the server does, from the same schema', () => {
    const serverSays = (max_amount: unknown) => PlaceBidSchema.safeParse({ ...bid, max_amount }).error?.issues.find((issue) => issue.path[0] === 'max_amount')?.message;
    const cases: Array<[string, unknown, string]> = [
      ['abc', 'abc', 'Maximum bid must be a number'],
      ['$3,000', '$3,000', 'Maximum bid must be a number'],
      ['2500.5', 2500.5, 'Maximum bid must be whole dollars'],
      ['1999', 1999, 'Your maximum bid must be at least your bid'],
      ['1000000001', 1_000_000_001, 'Maximum bid is too large'],
    ];
    for (const [typed, sent, message] of cases) {
      expect(checkMaxAmount(typed, bid)).toEqual({ ok: false, error: message });
      expect(serverSays(sent)).toBe(message);
    }
    // Text that reads as a number too large for one (Infinity) is refused as the schema refuses it.
    expect(checkMaxAmount('1e400', bid)).toEqual({ ok: false, error: 'Maximum bid must be a number' });
  });

  it('applies only its own rules while the bid itself is wrong (amount 1)', () => {
    expect(checkMaxAmount('0', { listing_id: ID, amount: 1 })).toEqual({ ok: false, error: 'Maximum bid must be at least $1' });
    expect(checkMaxAmount('5', { listing_id: ID, amount: 1 })).toEqual({ ok: true, max_amount: 5 });
  });
});

describe('placeBidBody', () => {
  it('sends max_amount only when one was typed', () => {
    expect(placeBidBody(ID, 2000)).toEqual({ listing_id: ID, amount: 2000 });
    expect(Object.keys(placeBidBody(ID, 2000))).not.toContain('max_amount');
    expect(placeBidBody(ID, 2000, 3500)).toEqual({ listing_id: ID, amount: 2000, max_amount: 3500 });
  });
});

describe('readAmountForm', () => {
  const read = (typed: string, typedMax: string | null) => readAmountForm(ID, checkBidAmount(typed, 2000), typedMax);

  it('builds the body from the bid and the maximum', () => {
    expect(read('2000', '3500')).toEqual({ body: { listing_id: ID, amount: 2000, max_amount: 3500 }, amountError: null, maxError: null });
    expect(read('2000', '')).toEqual({ body: { listing_id: ID, amount: 2000 }, amountError: null, maxError: null });
    // A form without "Bid up to" (a manual auction, an offer) never sends one.
    expect(read('2000', null)).toEqual({ body: { listing_id: ID, amount: 2000 }, amountError: null, maxError: null });
  });

  it('sends nothing while a field is wrong, and shows each field its own message', () => {
    expect(read('2100', '2050')).toEqual({ body: null, amountError: null, maxError: 'Your maximum bid must be at least your bid' });
    expect(read('1999', '2.5')).toEqual({ body: null, amountError: 'Bid must be at least $2,000', maxError: 'Maximum bid must be whole dollars' });
    // A maximum is only compared with a bid that stands: the bid's own message says what is wrong first.
    expect(read('', '2500')).toEqual({ body: null, amountError: 'Please enter your bid amount', maxError: null });
  });
});

describe('bidOutcome', () => {
  it('says plainly when an earlier maximum outbid the bid at once, with the new price, and keeps it shown', () => {
    expect(bidOutcome({ leading: false, max_amount: null, current_bid: 2105 })).toEqual({
      text: "Outbid at once by another bidder's earlier maximum. The current bid is now $2,105.",
      tone: 'warning',
      lasting: true,
    });
    expect(bidOutcome({ leading: false, max_amount: 2500, current_bid: 2550 }).text).toBe("Outbid at once by another bidder's earlier maximum. The current bid is now $2,550.");
  });

  it('confirms the lead and the caller’s own maximum', () => {
    expect(bidOutcome({ leading: true, max_amount: 3500, current_bid: 2000 })).toEqual({ text: "✅ You lead; we'll bid for you up to $3,500.", tone: 'success', lasting: true });
  });

  it('keeps the plain success text of SPEC §8 without a maximum', () => {
    expect(bidOutcome({ leading: true, max_amount: null, current_bid: 2000 })).toEqual({ text: BID_SUCCESS, tone: 'success', lasting: false });
  });

  it('explains the rule in one sentence', () => {
    expect(MAX_BID_RULE.split(/[.!?](\s|$)/).filter((part) => part.trim()).length).toBe(1);
  });
});
