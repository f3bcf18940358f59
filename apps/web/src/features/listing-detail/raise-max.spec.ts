import { maximumRaiseRefusal } from '@market/domain';
import { checkRaiseMaximum, raiseOutcome } from './raise-max';

const ID = '0b6f6f4e-3c1a-4c55-9a55-7f1b6f8f2c11';
describe('checkRaiseMaximum (ADR 0055, ADR 0060)', () => {
  const check = (typed: string) => checkRaiseMaximum(typed, ID, 2105, 3000);

  it('sends the current price with the new maximum: the API reads it as a raise, not a bid', () => {
    expect(check(' 3500 ')).toEqual({ ok: true, body: { listing_id: ID, amount: 2105, max_amount: 3500 } });
  });
  it("refuses a maximum that is not higher with the domain's own words", () => {
    expect(check('3000')).toEqual({ ok: false, error: maximumRaiseRefusal(3000, 3000) });
    expect(check('2500')).toEqual({ ok: false, error: 'Your maximum bid is already $3,000: enter a higher maximum to raise it' });
  });
  it("refuses what the API's schema refuses, with its messages", () => {
    expect(check('')).toEqual({ ok: false, error: 'Please enter your new maximum' });
    expect(check('abc')).toEqual({ ok: false, error: 'Maximum bid must be a number' });
    expect(check('3500.5')).toEqual({ ok: false, error: 'Maximum bid must be whole dollars' });
    expect(check('1e12')).toEqual({ ok: false, error: 'Maximum bid is too large' });
  });
});

describe('raiseOutcome', () => {
  it('names the maximum now held, and stays until the next request', () => {
    expect(raiseOutcome({ leading: true, max_amount: 3500, current_bid: 2105 })).toEqual({ text: '✅ Your maximum bid was raised to $3,500.', tone: 'success', lasting: true });
  });
  it('warns when the answer says the viewer no longer leads', () => {
    expect(raiseOutcome({ leading: false, max_amount: null, current_bid: 4000 })).toEqual({
      text: 'Your maximum did not keep you in the lead. The current bid is $4,000.',
      tone: 'warning',
      lasting: true,
    });
  });
});
