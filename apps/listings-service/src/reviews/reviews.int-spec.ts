import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { RPC, type Actor, type EventEnvelope, type EventName, type MySaleReviews, type ReviewDto } from '@market/contracts';
import { isReviewVisible, reviewWindowCloses } from '@market/domain';
import { AppError } from '@market/server-kit';
import { eventually, testCaller } from '@market/server-kit/testing';
import { startListingsUnderTest, type ListingsUnderTest } from '../testing/listings-under-test';
import { SellerDirectory } from '../listings/seller-directory';
import { ReviewRepository } from './review.repository';
import { visibilityOf } from './review.policy';

const DAY = 24 * 3600 * 1000;

/** Reviews of completed sales on a real database and bus (D23, ADR 0083). */
describe('reviews of completed sales (D23)', () => {
  let under: ListingsUnderTest;
  let ds: DataSource;

  const call = <D extends (typeof RPC.listings)[keyof typeof RPC.listings]>(definition: D, input: unknown, actor: Actor | null) =>
    under.svc.rpc.call(definition as never, input as never, actor) as Promise<never>;
  const failure = async (pending: Promise<unknown>): Promise<AppError> => {
    const outcome = await pending.then(() => null, (error: unknown) => error);
    if (!(outcome instanceof AppError)) throw new Error(`expected a typed error, got ${String(outcome)}`);
    return outcome;
  };
  const person = () => testCaller(under.svc.env, { role: 'regular' });
  /** billing-service's sale.completed for a sale paid out `daysAgo` days ago; `id` repeats an event (a redelivery). */
  const completed = async (buyer: Actor, seller: Actor, daysAgo = 0, invoiceId: string = randomUUID(), id: string = randomUUID()) => {
    const payload = {
      invoice_id: invoiceId,
      invoice_number: `INV-2026-${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`,
      listing_id: randomUUID(),
      buyer_id: buyer.user_id,
      seller_id: seller.user_id,
      website_title: 'Coffee roasting blog',
      completed_at: new Date(Date.now() - daysAgo * DAY).toISOString(),
    };
    await under.publish({ id, name: 'sale.completed', occurred_at: new Date().toISOString(), request_id: null, payload } as EventEnvelope<EventName>);
    await eventually(async () => expect((await ds.query('SELECT 1 FROM completed_sales WHERE invoice_id = $1', [invoiceId])).length).toBe(1));
    return invoiceId;
  };
  const review = (actor: Actor, invoiceId: string, stars: number, text = 'Smooth handover, as described.') =>
    call(RPC.listings.reviewCreate, { invoice_id: invoiceId, stars, text }, actor) as Promise<ReviewDto>;
  const mine = (actor: Actor) => call(RPC.listings.reviewsMine, {}, actor) as Promise<MySaleReviews>;
  const standing = (seller: Actor) => under.svc.app.get(SellerDirectory).standing(seller.user_id);

  beforeAll(async () => {
    under = await startListingsUnderTest();
    ds = under.ds;
  });
  afterAll(async () => {
    await under?.stop();
  });

  it('keeps a completed sale once however often its event comes, and counts it for the seller', async () => {
    const [buyer, seller] = [await person(), await person()];
    const eventId = randomUUID();
    const invoiceId = await completed(buyer, seller, 0, randomUUID(), eventId);
    await completed(buyer, seller, 0, invoiceId, eventId);
    await completed(buyer, seller, 0, invoiceId);
    const [sale] = await ds.query('SELECT completed_at, reviews_close_at FROM completed_sales WHERE invoice_id = $1', [invoiceId]);
    expect(sale.reviews_close_at.toISOString()).toBe(reviewWindowCloses(sale.completed_at).toISOString());
    expect(await standing(seller)).toEqual({ rating: null, review_count: 0, total_transactions: 1 });
    expect(await standing(buyer)).toEqual({ rating: null, review_count: 0, total_transactions: 0 });
  });

  it('lets only the two parties review, once each, within the window; an impersonating admin may not', async () => {
    const [buyer, seller, stranger] = [await person(), await person(), await person()];
    const invoiceId = await completed(buyer, seller);
    expect((await failure(review(stranger, invoiceId, 5))).status).toBe(404);
    expect((await failure(review(buyer, randomUUID(), 5))).status).toBe(404);
    const admin = randomUUID();
    const actingAsBuyer = await testCaller(under.svc.env, { user_id: buyer.user_id, role: 'regular', impersonator_id: admin });
    expect((await failure(review(actingAsBuyer, invoiceId, 1))).status).toBe(403);
    expect(await ds.query('SELECT 1 FROM sale_reviews WHERE invoice_id = $1', [invoiceId])).toEqual([]);

    const written = await review(buyer, invoiceId, 4, '   Seller answered every question; the transfer took two days.   ');
    expect(written).toMatchObject({ stars: 4, text: 'Seller answered every question; the transfer took two days.', author_role: 'buyer', reply: null });
    const again = await failure(review(buyer, invoiceId, 5));
    expect([again.status, again.message]).toEqual([409, 'You already reviewed this sale']);
    // Two at once: the unique pair decides, one wins.
    const race = await Promise.allSettled([review(seller, invoiceId, 5), review(seller, invoiceId, 3)]);
    expect(race.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await ds.query('SELECT author_role FROM sale_reviews WHERE invoice_id = $1 ORDER BY author_role', [invoiceId])).toEqual([{ author_role: 'buyer' }, { author_role: 'seller' }]);
  });

  it('refuses a review after the 60 days, and shows a lone review once they are over', async () => {
    const [buyer, seller] = [await person(), await person()];
    const open = await completed(buyer, seller, 59);
    const closed = await completed(buyer, seller, 61);
    const late = await failure(review(buyer, closed, 5));
    expect(late.status).toBe(409);
    expect(late.message).toMatch(/^Reviews of this sale closed on \d{4}-\d{2}-\d{2}$/);
    await review(buyer, open, 2, 'Traffic was lower than claimed.');
    // Within the window the seller cannot see it, and it does not count.
    expect((await mine(seller)).sales.find((s) => s.invoice_id === open)).toMatchObject({ can_review: true, mine: null, theirs: null });
    expect(await standing(seller)).toMatchObject({ rating: null, review_count: 0, total_transactions: 2 });
    // The window ends: the lone review shows, and the seller can no longer answer it in kind.
    await ds.query(`UPDATE completed_sales SET reviews_close_at = now() - interval '1 second' WHERE invoice_id = $1`, [open]);
    expect((await mine(seller)).sales.find((s) => s.invoice_id === open)).toMatchObject({ can_review: false, theirs: { stars: 2 } });
    expect(await standing(seller)).toEqual({ rating: 2, review_count: 1, total_transactions: 2 });
  });

  it('shows both reviews once both wrote; the rating is their mean, half up to one decimal', async () => {
    const [seller, ...buyers] = [await person(), await person(), await person(), await person()];
    const sales = [];
    for (const buyer of buyers) sales.push(await completed(buyer, seller));
    const stars = [5, 4, 4];
    for (const [i, buyer] of buyers.entries()) await review(buyer, sales[i], stars[i]);
    expect(await standing(seller)).toMatchObject({ rating: null, review_count: 0 });
    // The seller answers two of the three: those two show (13 / 3 would be 4.3; 9 / 2 is 4.5).
    await review(seller, sales[0], 5, 'Quick payment, good questions.');
    await review(seller, sales[1], 4, 'Paid on time, easy to work with.');
    expect(await standing(seller)).toEqual({ rating: 4.5, review_count: 2, total_transactions: 3 });
    const buyerView = (await mine(buyers[0])).sales[0];
    expect(buyerView).toMatchObject({ role: 'buyer', can_review: false, mine: { stars: 5 }, theirs: { stars: 5, author_role: 'seller' } });
    expect((await mine(buyers[2])).sales[0].theirs).toBeNull();
  });

  it("holds the SQL's visibility to the domain rule for every case", async () => {
    const [buyer, seller] = [await person(), await person()];
    const cases = [
      { daysAgo: 1, both: false, hide: false },
      { daysAgo: 1, both: true, hide: false },
      { daysAgo: 61, both: false, hide: false },
      { daysAgo: 1, both: true, hide: true },
      { daysAgo: 61, both: false, hide: true },
    ];
    const repo = under.svc.app.get(ReviewRepository);
    for (const c of cases) {
      const invoiceId = await completed(buyer, seller, c.daysAgo);
      const written = await ds.query(
        `INSERT INTO sale_reviews (invoice_id, author_id, subject_id, author_role, stars, body, hidden_at) VALUES ($1, $2, $3, 'buyer', 3, 'A fair deal overall.', $4) RETURNING id`,
        [invoiceId, buyer.user_id, seller.user_id, c.hide ? new Date() : null],
      );
      if (c.both) await ds.query(`INSERT INTO sale_reviews (invoice_id, author_id, subject_id, author_role, stars, body) VALUES ($1, $2, $3, 'seller', 4, 'Paid promptly, thanks.')`, [invoiceId, seller.user_id, buyer.user_id]);
      const row = (await repo.review(written[0].id))!;
      const listed = (await repo.sellerReviews(seller.user_id, new Date(), 0, 100)).some((r) => r.id === row.id);
      expect({ ...c, listed }).toEqual({ ...c, listed: isReviewVisible(visibilityOf(row), new Date()) });
    }
  });

  it('lets the reviewed seller reply once to a visible review, and no one else', async () => {
    const [buyer, seller, stranger] = [await person(), await person(), await person()];
    const invoiceId = await completed(buyer, seller);
    const written = await review(buyer, invoiceId, 3, 'Fine, but slow to answer.');
    const reply = (actor: Actor) => call(RPC.listings.reviewReply, { id: written.id, reply: { text: 'Sorry, I was travelling that week.' } }, actor) as Promise<ReviewDto>;
    // Not visible yet: it does not exist for the seller.
    expect((await failure(reply(seller))).status).toBe(404);
    await review(seller, invoiceId, 5, 'Great buyer, paid at once.');
    expect((await failure(reply(stranger))).status).toBe(404);
    expect((await failure(reply(buyer))).status).toBe(404);
    expect((await reply(seller)).reply).toMatchObject({ text: 'Sorry, I was travelling that week.' });
    expect((await failure(reply(seller))).status).toBe(409);
  });

  it('lets a real admin hide a review with a reason, audited in the same transaction; only once', async () => {
    const [buyer, seller] = [await person(), await person()];
    const invoiceId = await completed(buyer, seller);
    const written = await review(buyer, invoiceId, 1, 'Call me at 555-0100 for the real story.');
    await review(seller, invoiceId, 5, 'Fine buyer, quick to pay.');
    expect(await standing(seller)).toMatchObject({ rating: 1, review_count: 1 });
    const hide = (actor: Actor, reason = 'Contact details are not allowed in reviews.') => call(RPC.listings.reviewHide, { id: written.id, hide: { reason } }, actor);
    const admin = await testCaller(under.svc.env, { role: 'admin' });
    const impersonating = await testCaller(under.svc.env, { user_id: seller.user_id, role: 'admin', impersonator_id: admin.user_id });
    expect((await failure(hide(seller))).status).toBe(403);
    expect((await failure(hide(impersonating))).status).toBe(403);
    expect((await failure(call(RPC.listings.reviewHide, { id: randomUUID(), hide: { reason: 'Contact details are not allowed.' } }, admin))).status).toBe(404);
    await hide(admin);
    expect(await standing(seller)).toMatchObject({ rating: null, review_count: 0 });
    expect((await failure(hide(admin))).status).toBe(409);
    const audit = await ds.query(`SELECT payload FROM outbox WHERE name = 'admin.acted' AND payload->>'target_id' = $1`, [written.id]);
    expect(audit).toHaveLength(1);
    expect(audit[0].payload).toMatchObject({ admin_id: admin.user_id, action: 'review.hidden', target_type: 'review' });
    const [row] = await ds.query('SELECT hidden_reason FROM sale_reviews WHERE id = $1', [written.id]);
    expect(row.hidden_reason).toBe('Contact details are not allowed in reviews.');
  });
});
