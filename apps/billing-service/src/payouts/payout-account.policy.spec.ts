import type { Actor } from '@market/contracts';
import { AppError } from '@market/server-kit';
import { authorizeOnboardingLink, authorizePayoutSetup } from './payout-account.policy';

const seller: Actor = { user_id: 'seller', role: 'regular' };
const actingAsSeller: Actor = { ...seller, impersonator_id: 'admin' };
const stranger: Actor = { user_id: 'stranger', role: 'regular' };
const refusal = (run: () => void) => {
  try {
    run();
    return null;
  } catch (error) {
    return { status: (error as AppError).status, detail: (error as AppError).detail };
  }
};
const IMPERSONATING = { status: 403, detail: 'A payout account cannot be set up while impersonating a user' };

describe('payout account policy (ADR 0069)', () => {
  it('lets a seller set up payouts in their own session only, never an admin acting as them', () => {
    expect(refusal(() => authorizePayoutSetup(seller))).toBeNull();
    expect(refusal(() => authorizePayoutSetup(actingAsSeller))).toEqual(IMPERSONATING);
  });

  it.each([
    ['its member', seller, { user_id: 'seller' }, null],
    ['its member acted as by an admin', actingAsSeller, { user_id: 'seller' }, IMPERSONATING],
    ['another member', stranger, { user_id: 'seller' }, { status: 404, detail: 'No such link' }],
    ['anyone, when there is no such link', seller, null, { status: 404, detail: 'No such link' }],
  ])('opens an onboarding link for %s', (_who, actor, link, expected) => {
    expect(refusal(() => authorizeOnboardingLink(actor, link, 'No such link'))).toEqual(expected);
  });
});
