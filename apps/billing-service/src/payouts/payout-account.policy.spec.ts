import type { Actor } from '@market/contracts';
import { refusalOf } from '@market/server-kit/testing';
import { authorizeOnboardingLink, authorizePayoutSetup } from './payout-account.policy';

const seller: Actor = { user_id: 'seller', role: 'regular' };
const actingAsSeller: Actor = { ...seller, impersonator_id: 'admin' };
const stranger: Actor = { user_id: 'stranger', role: 'regular' };
const IMPERSONATING = { status: 403, detail: 'A payout account cannot be set up while impersonating a user' };

describe('payout account policy (ADR 0069)', () => {
  it('lets a seller set up payouts in their own session only, never an admin acting as them', () => {
    expect(refusalOf(() => authorizePayoutSetup(seller))).toBeNull();
    expect(refusalOf(() => authorizePayoutSetup(actingAsSeller))).toEqual(IMPERSONATING);
  });

  it.each([
    ['its member', seller, { user_id: 'seller' }, null],
    ['its member acted as by an admin', actingAsSeller, { user_id: 'seller' }, IMPERSONATING],
    ['another member', stranger, { user_id: 'seller' }, { status: 404, detail: 'No such link' }],
    ['anyone, when there is no such link', seller, null, { status: 404, detail: 'No such link' }],
  ])('opens an onboarding link for %s', (_who, actor, link, expected) => {
    expect(refusalOf(() => authorizeOnboardingLink(actor, link, 'No such link'))).toEqual(expected);
  });
});
