import { BUYING_HOLD_MESSAGE } from '@market/domain';
import { BARRED, BARRED_BIDDER, buyerRefusal, ONLY_THE_SELLER, saleDecisionRefusal, saleToRefusal } from './bidding.policy';

const sale = { seller_id: 'seller' };

describe('bidding policy (ADR 0069)', () => {
  it.each([
    ['the seller', 'seller', null],
    ['a bidder', 'bidder', { allowed: false, status: 403, reason: ONLY_THE_SELLER }],
    ['anyone else', 'someone', { allowed: false, status: 403, reason: ONLY_THE_SELLER }],
  ])('lets %s accept or reject bids on a listing: %j', (_who, actorId, expected) => {
    expect(saleDecisionRefusal(actorId, sale)).toEqual(expected);
  });

  it.each([
    ['a member in good standing', { barred: false, held: false }, null],
    ['a member removed by moderation', { barred: true, held: false }, BARRED],
    ['a member on a buying hold', { barred: false, held: true }, BUYING_HOLD_MESSAGE],
    ['a removed member also on a hold (removal first)', { barred: true, held: true }, BARRED],
    ['a member whose hold was not read (offers, buy now)', { barred: false }, null],
  ])('lets %s bid, offer or buy', (_who, standing, expected) => {
    expect(buyerRefusal(standing)).toBe(expected);
  });

  it('never lets a seller sell to a removed member', () => {
    expect(saleToRefusal(false)).toBeNull();
    expect(saleToRefusal(true)).toEqual({ allowed: false, status: 400, reason: BARRED_BIDDER });
  });
});
