import type { Actor } from '@market/contracts';
import { AppError } from '@market/server-kit';
import { authorizeReply, authorizeReview } from './review.policy';
import type { CompletedSaleRow, ReviewRow } from './review.repository';

const buyer: Actor = { user_id: 'buyer', role: 'regular' };
const seller: Actor = { user_id: 'seller', role: 'regular' };
const stranger: Actor = { user_id: 'stranger', role: 'regular' };
const admin: Actor = { user_id: 'admin', role: 'admin' };
const impersonated = (who: Actor): Actor => ({ ...who, impersonator_id: 'admin' });
const now = new Date('2026-12-07T12:00:00.000Z');
const sale: CompletedSaleRow = {
  invoice_id: 'inv',
  invoice_number: 'INV-1',
  listing_id: 'listing',
  buyer_id: 'buyer',
  seller_id: 'seller',
  website_title: 'Blog',
  completed_at: new Date('2026-12-01T00:00:00.000Z'),
  reviews_close_at: new Date('2027-01-30T00:00:00.000Z'),
};
const review = (over: Partial<ReviewRow> = {}): ReviewRow => ({
  id: 'r',
  invoice_id: 'inv',
  author_id: 'buyer',
  subject_id: 'seller',
  author_role: 'buyer',
  stars: 4,
  body: 'A fair deal overall.',
  reply: null,
  replied_at: null,
  hidden_at: null,
  created_at: now,
  website_title: 'Blog',
  reviews_close_at: sale.reviews_close_at,
  both_written: true,
  ...over,
});
const status = (decide: () => unknown): number | 'allowed' => {
  try {
    decide();
    return 'allowed';
  } catch (error) {
    if (error instanceof AppError) return error.status;
    throw error;
  }
};

describe('review policy (D23, ADR 0083)', () => {
  it.each([
    ['the buyer', buyer, 'allowed'],
    ['the seller', seller, 'allowed'],
    ['a stranger', stranger, 404],
    ['a real admin', admin, 404],
    ['an admin acting as the buyer', impersonated(buyer), 403],
    ['an admin acting as a stranger', impersonated(stranger), 404],
  ])('a review of a sale paid out, by %s: %s', (_who, actor, expected) => {
    expect(status(() => authorizeReview(actor, sale))).toBe(expected);
  });

  it('answers an unknown sale like a stranger, and says which side the author is on', () => {
    expect(status(() => authorizeReview(buyer, null))).toBe(404);
    expect(authorizeReview(seller, sale).role).toBe('seller');
  });

  it.each([
    ['the reviewed seller, visible', seller, review(), 'allowed'],
    ['the reviewed seller, not yet visible', seller, review({ both_written: false }), 404],
    ['the reviewed seller, window over', seller, review({ both_written: false, reviews_close_at: now }), 'allowed'],
    ['the reviewed seller, hidden', seller, review({ hidden_at: now }), 404],
    ['the buyer who wrote it', buyer, review(), 404],
    ['a stranger', stranger, review(), 404],
    ['a real admin', admin, review(), 404],
    ['an admin acting as the seller', impersonated(seller), review(), 403],
    ['the buyer, on a seller-written review of them', buyer, review({ author_id: 'seller', subject_id: 'buyer', author_role: 'seller' }), 404],
  ])('a reply by %s', (_who, actor, row, expected) => {
    expect(status(() => authorizeReply(actor, row, now))).toBe(expected);
  });
});
