import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { RPC, type EventEnvelope, type EventName, type ListingDto, type VerificationConnectionsDto } from '@market/contracts';
import { eventually, testCaller } from '@market/server-kit/testing';
import { midMonth, startVerifiedRevenue, type VerifiedRevenueHarness } from '../testing/verified-revenue.harness';
import { VERIFICATION_QUEUE, refreshSchedulerId } from './verification-refresh.jobs';

/** Verified revenue through the Stripe SDK against its stand-in, on a real database, bus and Redis: connect, the 15% rule, who may, disconnect and deletion (ADR 0084). */
describe('verified revenue (D24)', () => {
  let h: VerifiedRevenueHarness;
  beforeAll(async () => {
    h = await startVerifiedRevenue();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('connects a restricted key after one read, keeps it sealed, and shows the figures beside the claim', async () => {
    const seller = await h.person();
    const live = await h.under.live(seller.user_id, { monthly_revenue: 1000 });
    const key = h.account(100_000);
    const answer = await h.connect(seller, live.id, key);
    expect(JSON.stringify(answer)).not.toContain(key);
    expect(answer.sources.find((s) => s.source === 'stripe')).toMatchObject({ available: true, test_mode: false, connection: { state: 'active', last_error: null, verified_at: null } });
    expect(answer.sources.find((s) => s.source === 'ga4')).toMatchObject({ available: false, connection: null });

    const [stored] = await h.under.ds.query('SELECT credential FROM listing_verifications WHERE listing_id = $1', [live.id]);
    expect(stored.credential.includes(Buffer.from(key.slice(8)))).toBe(false);

    const shown = await h.verified(live.id);
    expect(shown.revenue_verified).toBe(true);
    expect(shown.verification?.revenue).toMatchObject({
      state: 'current',
      test_mode: false,
      monthly_average_cents: 100_000,
      claimed_cents: 100_000,
      inflated: false,
      other_currency_charges: 0,
      // The newest charge that names itself: the full read's, as the check's one charge may not.
      account_label: 'COFFEE BLOG',
    });
    expect(shown.verification?.revenue?.months.map((m) => m.cents)).toEqual(h.months.map(() => 100_000));
    expect(await h.flags(live.id)).toEqual({ revenue_verified: true, traffic_verified: false });

    // The daily refresh is scheduled, one per listing and source.
    const queue = new Queue(VERIFICATION_QUEUE, { connection: { url: h.under.svc.env.REDIS_URL }, prefix: h.under.svc.env.QUEUE_PREFIX });
    try {
      const schedulers = await queue.getJobSchedulers();
      expect(schedulers.map((s) => s.key)).toContain(refreshSchedulerId(live.id, 'stripe'));
    } finally {
      await queue.close();
    }
  });

  it('flags a claim more than 15% above the verified figure, and checks an edited claim again (the badge with it)', async () => {
    const seller = await h.person();
    const live = await h.under.live(seller.user_id, { monthly_revenue: 1150 });
    await h.connect(seller, live.id, h.account(100_000));
    const shown = await h.verified(live.id);
    expect([shown.verification?.revenue?.inflated, shown.revenue_verified]).toEqual([false, true]);
    const edit = (monthly_revenue: number) =>
      h.call(RPC.listings.update, {
        id: live.id,
        listing: {
          title: live.title, description: live.description, category: live.category, website_url: live.website_url, monthly_revenue,
          annual_revenue: live.annual_revenue, monthly_traffic: live.monthly_traffic, profit_margin: live.profit_margin,
          business_age_months: live.business_age_months, starting_price: live.starting_price,
        },
        screenshots: [],
      }, seller) as Promise<{ listing: ListingDto }>;
    const edited = await edit(1151);
    expect(edited.listing.revenue_verified).toBe(false);
    expect((await h.listing(live.id, seller)).verification?.revenue).toMatchObject({ inflated: true, claimed_cents: 115_100, monthly_average_cents: 100_000 });
    expect(await h.flags(live.id)).toEqual({ revenue_verified: false, traffic_verified: false });
    const admin = await h.person('admin');
    const { listings } = (await h.call(RPC.listings.adminList, { limit: 1000 }, admin)) as { listings: ListingDto[] };
    expect(listings.find((l) => l.id === live.id)?.verification?.revenue?.inflated).toBe(true);
    await edit(1150);
    expect(await h.flags(live.id)).toEqual({ revenue_verified: true, traffic_verified: false });
  });

  it('lets only the seller connect; a bad key, a secret key or a slow Stripe keeps nothing', async () => {
    const [seller, other, admin] = [await h.person(), await h.person(), await h.person('admin')];
    const live = await h.under.live(seller.user_id);
    const key = h.account(50_000);
    expect((await h.failure(h.connect(other, live.id, key))).status).toBe(403);
    expect((await h.failure(h.connect(admin, live.id, key))).status).toBe(403);
    const acting = await testCaller(h.under.svc.env, { user_id: seller.user_id, role: 'regular', impersonator_id: admin.user_id });
    expect((await h.failure(h.connect(acting, live.id, key))).status).toBe(403);
    expect((await h.failure(h.connect(seller, randomUUID(), key))).status).toBe(404);
    expect((await h.failure(h.connect(seller, live.id, `sk_test_${'a'.repeat(24)}`))).status).toBe(422);
    // Figures here are real: a test-mode key reads Stripe's test data, whatever charges its owner made up.
    const testKey = `rk_test_${randomUUID().replace(/-/g, '')}`;
    h.stripe.addAccount(testKey, h.months.map((month) => ({ amount: 500_000, created: midMonth(month) })));
    expect((await h.failure(h.connect(seller, live.id, testKey))).status).toBe(400);

    const unknown = await h.failure(h.connect(seller, live.id, `rk_live_${randomUUID().replace(/-/g, '')}`));
    expect(unknown.status).toBe(400);
    const denied = await h.failure(h.connect(seller, live.id, h.account(1, 'no_permission')));
    expect(denied.status).toBe(400);
    const started = Date.now();
    const slow = await h.failure(h.connect(seller, live.id, h.account(1, 'slow')));
    expect(slow.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(5_000);
    for (const refused of [unknown, denied, slow]) expect(JSON.stringify(refused.detail)).not.toMatch(/rk_test_[A-Za-z0-9]{20}/);
    expect(await h.under.ds.query('SELECT 1 FROM listing_verifications WHERE listing_id = $1', [live.id])).toEqual([]);
    expect(await h.under.ds.query('SELECT 1 FROM verification_snapshots WHERE listing_id = $1', [live.id])).toEqual([]);
    expect((await h.listing(live.id)).verification).toEqual({ revenue: null, traffic: null });
  });

  it('disconnects: the key and every figure go, and so does the badge', async () => {
    const seller = await h.person();
    const live = await h.under.live(seller.user_id);
    await h.connect(seller, live.id, h.account(20_000));
    await h.verified(live.id);
    const other = await h.person();
    expect((await h.failure(h.call(RPC.listings.disconnect, { id: live.id, source: 'stripe' }, other))).status).toBe(403);
    const answer = (await h.call(RPC.listings.disconnect, { id: live.id, source: 'stripe' }, seller)) as VerificationConnectionsDto;
    expect(answer.sources.find((s) => s.source === 'stripe')?.connection).toBeNull();
    expect(await h.under.ds.query('SELECT 1 FROM listing_verifications WHERE listing_id = $1', [live.id])).toEqual([]);
    expect(await h.under.ds.query('SELECT 1 FROM verification_snapshots WHERE listing_id = $1', [live.id])).toEqual([]);
    expect((await h.listing(live.id)).verification).toEqual({ revenue: null, traffic: null });
    expect(await h.flags(live.id)).toEqual({ revenue_verified: false, traffic_verified: false });
    expect((await h.failure(h.call(RPC.listings.verifications, { id: live.id }, other))).status).toBe(404);
  });

  it("forgets a deleted account's keys and figures (user.deleted)", async () => {
    const seller = await h.person();
    const live = await h.under.live(seller.user_id);
    await h.connect(seller, live.id, h.account(30_000));
    await h.verified(live.id);
    const payload = { user_id: seller.user_id, deleted_by: randomUUID() };
    await h.under.publish({ id: randomUUID(), name: 'user.deleted', occurred_at: new Date().toISOString(), request_id: null, payload } as EventEnvelope<EventName>);
    await eventually(async () => expect(await h.under.ds.query('SELECT 1 FROM listing_verifications WHERE listing_id = $1', [live.id])).toEqual([]));
    expect(await h.under.ds.query('SELECT 1 FROM verification_snapshots WHERE listing_id = $1', [live.id])).toEqual([]);
    expect(await h.flags(live.id)).toEqual({ revenue_verified: false, traffic_verified: false });
  });
});
