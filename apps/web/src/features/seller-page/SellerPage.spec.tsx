import type { ListingCardDto, ReviewDto, SellerPageDto, UserDto } from '@market/contracts';
import { Route, Routes } from 'react-router-dom';
import { createStore, type AppStore } from '../../testing/test-store';
import { renderStatic, visibleText } from '../../testing/static-render';
import { reviewsApi } from '../../api/reviews.api';
import { api } from '../../lib/api';
import { userUpdated } from '../../session/session.slice';
import { SellerPage, SellerPageView } from './SellerPage';
import { SellerReviews } from './SellerReviews';
import { NO_LISTINGS_TEXT, NO_REVIEWS_TEXT, NOT_ACTIVE_TEXT, reviewsPageOf, sellerPageMeta } from './seller-page';

jest.mock('./seller-page.css', () => ({}));
jest.mock('../../components/reviews/reviews.css', () => ({}));
jest.mock('../../components/listing/listing-card.css', () => ({}));
jest.mock('../../components/form/form-fields.css', () => ({}));
jest.mock('../../components/feedback/feedback.css', () => ({}));

const SELLER_ID = '1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

const review = (n: number, over: Partial<ReviewDto> = {}): ReviewDto => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  stars: 5 - (n % 2),
  text: `Review number ${n}: smooth handover.`,
  author: { username: `buyer${n}`, name: null },
  author_role: 'buyer',
  website_title: `Site ${n}`,
  reply: null,
  created_at: `2026-03-1${n}T10:00:00.000Z`,
  ...over,
});

const card: ListingCardDto = {
  id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
  title: 'Birdwatching blog',
  category: 'Blog',
  listing_type: 'fixed',
  status: 'active',
  featured: false,
  monthly_revenue: 1200,
  monthly_traffic: 45000,
  starting_price: 18000,
  current_bid: null,
  buy_now_price: null,
  has_reserve: false,
  reserve_met: false,
  expires_at: '2026-12-01T00:00:00.000Z',
  created_at: '2026-11-01T00:00:00.000Z',
  bid_count: 0,
  price_version: 0,
  ownership_verified: false,
  revenue_verified: false,
  traffic_verified: false,
  excerpt: 'A blog about birds',
  screenshot: null,
};

const pageData = (over: Partial<SellerPageDto> = {}): SellerPageDto => ({
  seller: {
    id: SELLER_ID,
    username: 'sam_seller',
    name: 'Sam Seller',
    verified: true,
    member_since: '2025-03-02T00:00:00.000Z',
    rating: 4.5,
    review_count: 12,
    total_transactions: 8,
  },
  reviews: [review(1, { reply: { text: 'Thank you!', created_at: '2026-03-12T10:00:00.000Z' } }), review(2)],
  page: 1,
  pages: 2,
  listings: [card],
  listing_count: 1,
  ...over,
});

const empty = pageData({
  seller: { ...pageData().seller, verified: false, rating: null, review_count: 0, total_transactions: 0 },
  reviews: [],
  pages: 0,
  listings: [],
  listing_count: 0,
});

const stores: AppStore[] = [];
afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));
const newStore = () => {
  const store = createStore();
  stores.push(store);
  return store;
};

const view = (result: Parameters<typeof SellerPageView>[0]['result'], store = newStore()) =>
  renderStatic(<SellerPageView username="sam_seller" page={1} result={result} />, store, '/seller/sam_seller');

describe('seller page states (ADR 0083)', () => {
  it('says the account is not active for a 404, in the API’s words', () => {
    const page = visibleText(view({ isLoading: false, error: { status: 404, data: { detail: NOT_ACTIVE_TEXT } } }));
    expect(page).toContain('This account is not active.');
    expect(page).not.toContain('Try again');
  });

  it('offers to try again when the API could not be reached, without calling the account inactive', () => {
    const page = visibleText(view({ isLoading: false, error: { status: 'FETCH_ERROR', error: 'offline' }, refetch: () => undefined }));
    expect(page).toContain('This page could not be loaded');
    expect(page).toContain('Try again');
    expect(page).not.toContain(NOT_ACTIVE_TEXT);
  });

  it('shows the empty states of a seller with no reviews and no live listings', () => {
    const page = visibleText(view({ isLoading: false, data: empty }));
    expect(page).toContain('Sam Seller');
    expect(page).toContain('@sam_seller · Member since March 2025');
    expect(page).toContain('No ratings yet');
    expect(page).toContain('0 sales completed');
    expect(page).toContain(NO_REVIEWS_TEXT);
    expect(page).toContain(NO_LISTINGS_TEXT);
    expect(page).not.toContain('Verified seller');
    expect(page).not.toContain('Page 1 of');
  });

  it('lists the reviews with their replies, the rating, the live listings and the way to the next page', () => {
    const html = view({ isLoading: false, data: pageData() });
    const page = visibleText(html);
    expect(html).toContain('aria-label="Verified seller"');
    expect(html).toContain('aria-label="4.5 out of 5"');
    expect(page).toContain('(12 reviews)');
    expect(page).toContain('8 sales completed');
    expect(html.match(/data-testid="review-item"/g)).toHaveLength(2);
    expect(page.indexOf('Review number 1')).toBeLessThan(page.indexOf('Review number 2'));
    expect(page).toContain('Reply from Sam Seller');
    expect(page).toContain('Thank you!');
    expect(html.match(/data-testid="listing-card"/g)).toHaveLength(1);
    expect(page).toContain('Live listings (1)');
    expect(page).toContain('Page 1 of 2');
    expect(html).toMatch(/<a class="btn btn-ghost btn-small" rel="next" href="\/seller\/sam_seller\?page=2"[^>]*>Next<\/a>/);
    expect(page).not.toContain('Previous');
  });

  it('reads the page of reviews from the route and shows what the store holds for it', async () => {
    const store = newStore();
    await store.dispatch(reviewsApi.util.upsertQueryData('sellerPage', { username: 'sam_seller', page: 2 }, pageData({ page: 2, reviews: [review(3)] })));
    const html = renderStatic(
      <Routes>
        <Route path="/seller/:username" element={<SellerPage />} />
      </Routes>,
      store,
      '/seller/sam_seller?page=2',
    );
    expect(visibleText(html)).toContain('Review number 3');
    expect(visibleText(html)).toContain('Page 2 of 2');
    expect(html).toMatch(/rel="prev" href="\/seller\/sam_seller"/);
  });
});

describe('what the viewer may do with a review', () => {
  const render = (viewer: Partial<UserDto> | null, flags: { isSeller: boolean; isAdmin: boolean }) => {
    const store = newStore();
    if (viewer) store.dispatch(userUpdated(viewer as UserDto));
    return visibleText(renderStatic(<SellerReviews data={pageData()} {...flags} />, store));
  };

  it('lets the seller reply once: only to the review without a reply', () => {
    const page = render({ id: SELLER_ID }, { isSeller: true, isAdmin: false });
    expect(page.match(/\bReply\b(?! from)/g)).toHaveLength(1);
    expect(page).not.toContain('Hide');
  });

  it('gives an admin Hide on every review, and a visitor neither action', () => {
    expect(render({ role: 'admin' }, { isSeller: false, isAdmin: true }).match(/\bHide\b/g)).toHaveLength(2);
    const visitor = render(null, { isSeller: false, isAdmin: false });
    expect(visitor).not.toContain('Hide');
    expect(visitor).not.toMatch(/\bReply\b(?! from)/);
  });
});

describe('seller page head and query', () => {
  it('answers 404, kept out of search results, for an account that is not active', () => {
    expect(sellerPageMeta('ghost', 1, undefined, true)).toEqual({ title: 'Account not active', url: '/seller/ghost', status: 404, noindex: true });
  });

  it('describes the seller with their figures, and names each page of reviews as its canonical address', () => {
    const meta = sellerPageMeta('SAM_seller', 2, pageData({ page: 2 }), false);
    expect(meta.title).toBe('Sam Seller (@sam_seller): reviews, page 2');
    expect(meta.url).toBe('/seller/sam_seller?page=2');
    expect(meta.description).toBe('Sam Seller sells websites on Site Market. Rated 4.5 out of 5 from 12 reviews, 8 sales completed, member since March 2025.');
    expect(meta.status).toBeUndefined();
    expect(sellerPageMeta('sam_seller', 1, empty, false).description).toContain('No ratings yet, 0 sales completed');
    expect(sellerPageMeta('sam_seller', 5, pageData(), false).noindex).toBe(true);
  });

  it('reads ?page= as a whole page number from 1, else the first page', () => {
    expect(reviewsPageOf(null)).toBe(1);
    expect(reviewsPageOf('3')).toBe(3);
    expect(reviewsPageOf('0')).toBe(1);
    expect(reviewsPageOf('2.5')).toBe(1);
    expect(reviewsPageOf('abc')).toBe(1);
    expect(reviewsPageOf('99999')).toBe(1);
  });
});
