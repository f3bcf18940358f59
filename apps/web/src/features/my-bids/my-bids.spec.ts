import type { BidActionResponse } from '@market/contracts';
import {
  acceptConfirmText,
  bidActionError,
  bidCounts,
  buyerBadges,
  formatBidDate,
  isSuperseded,
  kindLabel,
  messageDraft,
  performBidAction,
  RAISED_BADGE,
  sellerActions,
} from './my-bids';

const row = { kind: 'bid' as const, amount: 12500, listing_title: 'Heron watching blog', bidder_username: 'ann_buyer' };

describe('buyerBadges (SPEC §4)', () => {
  // A current row: the bidder's newest on the listing; `leading` follows is_winning unless a test says otherwise.
  const labels = (input: Omit<Parameters<typeof buyerBadges>[0], 'leading' | 'latest'> & { leading?: boolean; latest?: boolean }) =>
    buyerBadges({ leading: input.is_winning, latest: true, ...input }).map((badge) => badge.label);

  it('shows Winning for the leading bid and Outbid for a pending bid that no longer leads', () => {
    expect(labels({ kind: 'bid', status: 'pending', is_winning: true })).toEqual(['Winning']);
    expect(labels({ kind: 'bid', status: 'pending', is_winning: false })).toEqual(['Outbid']);
    expect(buyerBadges({ kind: 'bid', status: 'pending', is_winning: false, leading: false, latest: true })[0].tone).toBe('red');
  });
  it('never calls a pending offer outbid: it waits for the seller (decision 0016)', () => {
    expect(labels({ kind: 'offer', status: 'pending', is_winning: false })).toEqual(['Offer pending']);
  });
  it('adds the decision once the seller decided', () => {
    expect(labels({ kind: 'bid', status: 'accepted', is_winning: true })).toEqual(['Winning', 'Accepted']);
    expect(labels({ kind: 'offer', status: 'accepted', is_winning: true })).toEqual(['Winning', 'Accepted']);
    expect(labels({ kind: 'bid', status: 'rejected', is_winning: false })).toEqual(['Rejected']);
    expect(labels({ kind: 'offer', status: 'rejected', is_winning: false })).toEqual(['Rejected']);
  });
  it("shows the leader's older bid as Raised, not Outbid: they lead with a later bid or their maximum (ADR 0060)", () => {
    expect(labels({ kind: 'bid', status: 'pending', is_winning: false, leading: true, latest: false })).toEqual(['Raised']);
    expect(buyerBadges({ kind: 'bid', status: 'pending', is_winning: false, leading: true, latest: false })).toEqual([RAISED_BADGE]);
    expect(RAISED_BADGE.tone).toBe('gray');
  });
  it("tells an outbid bidder once, on the newest row; their older standing bids are Raised (ADR 0060)", () => {
    expect(labels({ kind: 'bid', status: 'pending', is_winning: false, leading: false, latest: true })).toEqual(['Outbid']);
    expect(labels({ kind: 'bid', status: 'pending', is_winning: false, leading: false, latest: false })).toEqual(['Raised']);
  });
  it("after the sale: the winner's older rows the sale rejected are Raised; the loser's stay Rejected (ADR 0060)", () => {
    expect(labels({ kind: 'bid', status: 'accepted', is_winning: true, leading: true, latest: true })).toEqual(['Winning', 'Accepted']);
    expect(labels({ kind: 'bid', status: 'rejected', is_winning: false, leading: true, latest: false })).toEqual(['Raised']);
    expect(labels({ kind: 'bid', status: 'rejected', is_winning: false, leading: false, latest: false })).toEqual(['Rejected']);
    expect(labels({ kind: 'bid', status: 'rejected', is_winning: false, leading: false, latest: true })).toEqual(['Rejected']);
  });
  it('never calls an offer Raised: each offer stands alone (D5)', () => {
    expect(labels({ kind: 'offer', status: 'pending', is_winning: false, leading: false, latest: false })).toEqual(['Offer pending']);
    expect(isSuperseded({ kind: 'offer', status: 'pending', is_winning: false, leading: true, latest: false })).toBe(false);
  });
  it('shows an unknown status as Processing (SPEC §3)', () => {
    expect(labels({ kind: 'bid', status: 'settling' as never, is_winning: false })).toEqual(['Processing']);
  });
});

describe('sellerActions (SPEC §2)', () => {
  it('acts only on pending rows, shows the decision otherwise, else No actions', () => {
    expect(sellerActions('pending')).toBe('actions');
    expect(sellerActions('accepted')).toBe('Accepted');
    expect(sellerActions('rejected')).toBe('Rejected');
    expect(sellerActions('lapsed')).toBe('No actions');
  });
});

describe('bidCounts', () => {
  it('counts every row, the buyer rows and the seller rows', () => {
    expect(bidCounts([])).toEqual({ total: 0, buyer: 0, seller: 0 });
    expect(bidCounts([{ role: 'buyer' }, { role: 'seller' }, { role: 'buyer' }])).toEqual({ total: 3, buyer: 2, seller: 1 });
  });
});

describe('labels and texts', () => {
  it('labels offers as Offer', () => {
    expect(kindLabel('offer')).toBe('Offer');
    expect(kindLabel('bid')).toBe('Bid');
    expect(kindLabel('buy_now')).toBe('Buy now');
  });
  it('writes the date in the given locale, and keeps text that is not a date', () => {
    expect(formatBidDate('2026-11-22T12:00:00Z', 'en-US')).toBe('Nov 22, 2026');
    expect(formatBidDate('soon')).toBe('soon');
  });
  it('prefills the compose dialog with the SPEC subject and a body naming the bidder and the amount', () => {
    const draft = messageDraft(row);
    expect(draft.subject).toBe('Re: Your bid on "Heron watching blog"');
    expect(draft.body.startsWith('Hi ann_buyer,\n\nThank you for your bid of $12,500 on "Heron watching blog".')).toBe(true);
    expect(messageDraft({ ...row, kind: 'offer' }).body).toContain('your offer of $12,500');
    expect(messageDraft({ ...row, kind: 'offer' }).subject).toBe('Re: Your bid on "Heron watching blog"');
  });
  it('names the amount and the bidder before accepting, and says it sells the listing', () => {
    const text = acceptConfirmText(row);
    expect(text).toContain('Accept the bid of $12,500 from ann_buyer on "Heron watching blog"?');
    expect(text).toContain('This sells the listing to ann_buyer');
    expect(acceptConfirmText({ ...row, kind: 'offer' })).toContain('Accept the offer of $12,500');
  });
  it('writes action failures as SPEC §8 does', () => {
    expect(bidActionError('accept', { status: 400, data: { detail: 'This listing has already been sold' } })).toBe(
      'Error accepting bid: This listing has already been sold',
    );
    expect(bidActionError('reject', { status: 'FETCH_ERROR', error: 'offline' })).toBe('Error rejecting bid: Unknown error');
  });
});

describe('performBidAction', () => {
  const answer: BidActionResponse = { success: true, message: 'Bid accepted. The listing is sold.', bid: { id: 'b1', status: 'accepted' } };

  it('accepts only after the user confirms, and shows the server message', async () => {
    const asked: string[] = [];
    const send = jest.fn(async () => answer);
    const outcome = await performBidAction(row, 'accept', { confirm: (text) => (asked.push(text), true), send });
    expect(asked).toEqual([acceptConfirmText(row)]);
    expect(send).toHaveBeenCalledTimes(1);
    expect(outcome).toEqual({ kind: 'success', text: 'Bid accepted. The listing is sold.' });
  });
  it('sends nothing when the user cancels the confirmation', async () => {
    const send = jest.fn(async () => answer);
    expect(await performBidAction(row, 'accept', { confirm: () => false, send })).toBeNull();
    expect(send).not.toHaveBeenCalled();
  });
  it('rejects without a confirmation (a seller may always reject)', async () => {
    const confirm = jest.fn(() => false);
    const send = jest.fn(async (): Promise<BidActionResponse> => ({ success: true, message: '', bid: { id: 'b1', status: 'rejected' } }));
    expect(await performBidAction({ ...row, kind: 'offer' }, 'reject', { confirm, send })).toEqual({ kind: 'success', text: 'Offer rejected.' });
    expect(confirm).not.toHaveBeenCalled();
  });
  it('turns a refusal into the SPEC §8 text', async () => {
    const send = jest.fn(async (): Promise<BidActionResponse> => {
      throw { status: 403, data: { detail: 'Only the seller can accept or reject bids on this listing' } };
    });
    expect(await performBidAction(row, 'reject', { confirm: () => true, send })).toEqual({
      kind: 'error',
      text: 'Error rejecting bid: Only the seller can accept or reject bids on this listing',
    });
  });
});
