import { PAYOUT_ACCOUNT_STATUSES, PAYOUT_STATUSES } from '@market/domain';
import { payoutAccountBadge, saleMoneyBadge } from './payout-status';

describe('saleMoneyBadge (D22)', () => {
  it.each([
    ['in_escrow', 'Held in escrow', 'blue'],
    ['waiting_for_account', 'Waiting for your payout account', 'orange'],
    ['pending', 'Being sent', 'blue'],
    ['paid', 'Paid', 'green'],
    ['reversed', 'Reversed', 'red'],
  ])('%s reads "%s" (%s)', (status, label, tone) => {
    expect(saleMoneyBadge(status)).toEqual({ label, tone });
  });

  it('has a label for every payout status the domain knows', () => {
    for (const status of PAYOUT_STATUSES) expect(saleMoneyBadge(status).tone).not.toBe('gray');
  });

  it("words the wait for an admin as the seller's, not the reader's", () => {
    expect(saleMoneyBadge('waiting_for_account', true)).toEqual({ label: 'Waiting', tone: 'orange' });
    expect(saleMoneyBadge('paid', true)).toEqual({ label: 'Paid', tone: 'green' });
  });

  it('shows a status it does not know as sent, in words', () => {
    expect(saleMoneyBadge('on_hold_by_bank')).toEqual({ label: 'on hold by bank', tone: 'gray' });
  });
});

describe('payoutAccountBadge (D22)', () => {
  it('labels every account status the domain knows', () => {
    expect(PAYOUT_ACCOUNT_STATUSES.map((status) => payoutAccountBadge(status).label)).toEqual(['Not set up', 'Details needed', 'Being verified', 'Payouts on', 'Restricted']);
  });

  it('makes enabled green and restricted red', () => {
    expect(payoutAccountBadge('enabled').tone).toBe('green');
    expect(payoutAccountBadge('restricted').tone).toBe('red');
  });

  it('shows an unknown status as sent, in words', () => {
    expect(payoutAccountBadge('under_review')).toEqual({ label: 'under review', tone: 'gray' });
  });
});
