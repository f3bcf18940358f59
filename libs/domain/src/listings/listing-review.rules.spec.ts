import {
  changedReviewedFields,
  lockedFieldsMessage,
  REVIEWED_LISTING_FIELDS,
  reviewedEditOutcome,
  type ReviewedListingValues,
} from './listing-review.rules';

const approved: ReviewedListingValues = {
  title: 'Recipe blog',
  description: 'A food blog with 40k monthly readers.',
  website_url: 'https://recipes.example.com',
  category: 'Blog',
  monthly_revenue: 1200,
  annual_revenue: 14400,
  monthly_traffic: 40000,
  monthly_expenses: 100,
  profit_margin: 91.67,
  business_age_months: 30,
  listing_type: 'auction',
  auction_type: 'auto',
  starting_price: 5000,
  reserve_price: null,
  buy_now_price: 20000,
  duration_days: 7,
};

describe('changedReviewedFields', () => {
  it('finds no change in an identical listing or one differing only in surrounding whitespace', () => {
    expect(changedReviewedFields(approved, { ...approved })).toEqual([]);
    expect(changedReviewedFields(approved, { ...approved, title: '  Recipe blog ' })).toEqual([]);
  });

  it.each(REVIEWED_LISTING_FIELDS)('sees a change of %s', (field) => {
    const value = approved[field];
    const changed = typeof value === 'number' ? value + 1 : value === null ? 1 : `${value} (new)`;
    expect(changedReviewedFields(approved, { ...approved, [field]: changed })).toEqual([field]);
  });

  it('treats an empty or left-out price as no price, and clearing a set price as a change', () => {
    expect(changedReviewedFields(approved, { ...approved, reserve_price: undefined })).toEqual([]);
    expect(changedReviewedFields(approved, { ...approved, buy_now_price: null })).toEqual(['buy_now_price']);
  });

  it('names every changed field in a fixed order', () => {
    expect(changedReviewedFields(approved, { ...approved, starting_price: 6000, title: 'Other' })).toEqual(['title', 'starting_price']);
  });
});

describe('reviewedEditOutcome', () => {
  const cases: [string, { approved: boolean; hasBids: boolean; byAdmin: boolean }, string][] = [
    ['never approved', { approved: false, hasBids: false, byAdmin: false }, 'free'],
    ['approved, no bids, seller', { approved: true, hasBids: false, byAdmin: false }, 'review'],
    ['approved, no bids, admin', { approved: true, hasBids: false, byAdmin: true }, 'free'],
    ['approved, bids, seller', { approved: true, hasBids: true, byAdmin: false }, 'locked'],
    ['approved, bids, admin', { approved: true, hasBids: true, byAdmin: true }, 'locked'],
  ];

  it.each(cases)('%s: a reviewed change is %s', (_name, context, kind) => {
    expect(reviewedEditOutcome(context, ['title']).kind).toBe(kind);
  });

  it.each(cases)('%s: an edit of other fields only is free', (_name, context) => {
    expect(reviewedEditOutcome(context, [])).toEqual({ kind: 'free' });
  });

  it('carries the changed fields', () => {
    expect(reviewedEditOutcome({ approved: true, hasBids: true, byAdmin: false }, ['title', 'website_url'])).toEqual({
      kind: 'locked',
      fields: ['title', 'website_url'],
    });
  });
});

describe('lockedFieldsMessage', () => {
  it('names the fields as people read them and says what to do', () => {
    expect(lockedFieldsMessage(['website_url', 'reserve_price'])).toBe(
      'This listing has bids, so its website address, reserve price can no longer change (bidders committed to them). Undo that change, or contact support if something is wrong.',
    );
  });
});
