import {
  hasBidiControl,
  isReviewVisible,
  isReviewWindowOpen,
  meanRating,
  REVIEW_WINDOW_DAYS,
  reviewTextLength,
  reviewWindowCloses,
  saleRoleOf,
} from './sale-review.rules';

describe('sale review rules (D23)', () => {
  const paidOut = new Date('2026-10-01T12:00:00.000Z');

  it('closes the window 60 days after the payout, the close itself excluded', () => {
    const closes = reviewWindowCloses(paidOut);
    expect(closes.toISOString()).toBe('2026-11-30T12:00:00.000Z');
    expect(REVIEW_WINDOW_DAYS).toBe(60);
    expect(isReviewWindowOpen(closes, paidOut)).toBe(true);
    expect(isReviewWindowOpen(closes, new Date(closes.getTime() - 1))).toBe(true);
    expect(isReviewWindowOpen(closes, closes)).toBe(false);
    expect(isReviewWindowOpen(closes, new Date(closes.getTime() + 1))).toBe(false);
  });

  it('knows the two sides of a sale and no one else', () => {
    const sale = { buyer_id: 'b', seller_id: 's' };
    expect(saleRoleOf(sale, 'b')).toBe('buyer');
    expect(saleRoleOf(sale, 's')).toBe('seller');
    expect(saleRoleOf(sale, 'x')).toBeNull();
  });

  it('counts characters as code points after trimming', () => {
    expect(reviewTextLength('  great sale  ')).toBe(10);
    expect(reviewTextLength('😀😀😀😀😀😀😀😀😀')).toBe(9);
    expect(reviewTextLength('\n\t ')).toBe(0);
    expect(reviewTextLength('\u200B'.repeat(10))).toBe(0);
    expect(reviewTextLength('good\u200Bdeal')).toBe(8);
    expect(reviewTextLength('line one\nline two')).toBe(17);
    expect(hasBidiControl('fine text')).toBe(false);
    expect(hasBidiControl('evil \u202Etxet')).toBe(true);
  });

  it('shows a review once both wrote or the window closed, never a hidden one', () => {
    const closesAt = reviewWindowCloses(paidOut);
    const before = new Date(closesAt.getTime() - 1);
    expect(isReviewVisible({ hidden: false, bothWritten: false, closesAt }, before)).toBe(false);
    expect(isReviewVisible({ hidden: false, bothWritten: true, closesAt }, before)).toBe(true);
    expect(isReviewVisible({ hidden: false, bothWritten: false, closesAt }, closesAt)).toBe(true);
    expect(isReviewVisible({ hidden: true, bothWritten: true, closesAt }, closesAt)).toBe(false);
  });

  it('rounds the mean half up to one decimal, exactly', () => {
    expect(meanRating(0, 0)).toBeNull();
    expect(meanRating(5, 1)).toBe(5);
    expect(meanRating(9, 2)).toBe(4.5);
    expect(meanRating(14, 3)).toBe(4.7); // 4.666…
    expect(meanRating(13, 3)).toBe(4.3); // 4.333…
    expect(meanRating(7, 4)).toBe(1.8); // 1.75 half up
    expect(meanRating(89, 20)).toBe(4.5); // 4.45 half up, where 4.45 * 10 in binary is 44.49…
    expect(meanRating(1, 3)).toBe(0.3);
  });

  it('agrees with a decimal reference on every small total', () => {
    for (let count = 1; count <= 40; count++) {
      for (let total = count; total <= 5 * count; total++) {
        // Reference: compare remainders in whole numbers.
        const tenths = Math.floor((10 * total) / count);
        const remainder = (10 * total) % count;
        const expected = (2 * remainder >= count ? tenths + 1 : tenths) / 10;
        expect(meanRating(total, count)).toBe(expected);
      }
    }
  });

  it('refuses counts that are not whole', () => {
    expect(() => meanRating(4.5, 1)).toThrow(RangeError);
    expect(() => meanRating(4, -1)).toThrow(RangeError);
  });
});
