import { BID_SUCCESS, checkBidAmount, checkOfferAmount, formatBidTime, OFFER_SUCCESS } from './bid-form';

describe('checkBidAmount', () => {
  it('accepts whole dollars at or above the minimum', () => {
    expect(checkBidAmount('1050', 1050)).toEqual({ ok: true, amount: 1050 });
    expect(checkBidAmount(' 2000 ', 1050)).toEqual({ ok: true, amount: 2000 });
    expect(checkBidAmount('1100.0', 1050)).toEqual({ ok: true, amount: 1100 });
  });
  it('requires an amount', () => {
    expect(checkBidAmount('', 1050)).toEqual({ ok: false, error: 'Please enter your bid amount' });
    expect(checkBidAmount('   ', 1050)).toEqual({ ok: false, error: 'Please enter your bid amount' });
  });
  it('refuses text that is not a number', () => {
    for (const typed of ['abc', '12abc', '$1,100', '1,100', '0x500', 'Infinity', '1e400']) {
      expect(checkBidAmount(typed, 5)).toEqual({ ok: false, error: 'Bid amount must be a number' });
    }
  });
  it('refuses cents (USD without decimals)', () => {
    expect(checkBidAmount('1050.50', 1000)).toEqual({ ok: false, error: 'Bid amount must be whole dollars' });
  });
  it('refuses amounts under the minimum next bid, naming it as the server does', () => {
    expect(checkBidAmount('1049', 1050)).toEqual({ ok: false, error: 'Bid must be at least $1,050' });
    expect(checkBidAmount('-5', 5)).toEqual({ ok: false, error: 'Bid must be at least $5' });
  });
  it('refuses amounts the platform cannot hold', () => {
    expect(checkBidAmount('1000000001', 5)).toEqual({ ok: false, error: 'Bid amount is too large' });
    expect(checkBidAmount('1000000000', 5)).toEqual({ ok: true, amount: 1_000_000_000 });
  });
});

describe('checkOfferAmount (D5)', () => {
  it('accepts whole dollars from $1 up to the asking price', () => {
    expect(checkOfferAmount('1', 8000)).toEqual({ ok: true, amount: 1 });
    expect(checkOfferAmount(' 6500 ', 8000)).toEqual({ ok: true, amount: 6500 });
    expect(checkOfferAmount('8000', 8000)).toEqual({ ok: true, amount: 8000 });
  });
  it('requires a number of whole dollars', () => {
    expect(checkOfferAmount('', 8000)).toEqual({ ok: false, error: 'Please enter your offer amount' });
    expect(checkOfferAmount('6,500', 8000)).toEqual({ ok: false, error: 'Offer amount must be a number' });
    expect(checkOfferAmount('6500.5', 8000)).toEqual({ ok: false, error: 'Offer amount must be whole dollars' });
  });
  it('refuses nothing-offers and offers above the asking price, as the server words it', () => {
    expect(checkOfferAmount('0', 8000)).toEqual({ ok: false, error: 'Offer must be at least $1' });
    expect(checkOfferAmount('-20', 8000)).toEqual({ ok: false, error: 'Offer must be at least $1' });
    expect(checkOfferAmount('8001', 8000)).toEqual({ ok: false, error: 'Offer cannot be above the asking price of $8,000' });
  });
});

describe('success texts', () => {
  it('carry ✅, as every green message does (SPEC §8)', () => {
    expect(BID_SUCCESS).toBe('✅ Bid placed successfully!');
    expect(OFFER_SUCCESS).toBe('✅ Offer sent to the seller');
  });
});

describe('formatBidTime', () => {
  it('shows a date and a time', () => {
    const text = formatBidTime('2026-11-22T15:04:00Z', 'en-US');
    expect(text).toContain('2026');
    expect(text).toMatch(/\d{1,2}:04/);
  });
  it('keeps text that is not a date', () => {
    expect(formatBidTime('soon', 'en-US')).toBe('soon');
  });
});
