import { Queue } from 'bullmq';
import { eventually } from '@market/server-kit/testing';
import { midMonth, startVerifiedRevenue, type VerifiedRevenueHarness } from '../testing/verified-revenue.harness';
import { VerificationRefresher } from './verification-refresher';
import { VerificationRefreshJobs, VERIFICATION_QUEUE, refreshSchedulerId } from './verification-refresh.jobs';

/** The refresh of verified revenue: snapshots, a failing and a refusing Stripe, the schedule, a reconnect overtaking a refresh and a sold listing (ADR 0084). */
describe('verified revenue: the refresh (D24)', () => {
  let h: VerifiedRevenueHarness;
  beforeAll(async () => {
    h = await startVerifiedRevenue();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('refreshes into a new snapshot; a failing Stripe keeps the last good one until it is stale; a revoked key ends the badge', async () => {
    const seller = await h.person();
    const live = await h.under.live(seller.user_id, { monthly_revenue: 500 });
    const key = h.account(40_000);
    await h.connect(seller, live.id, key);
    await h.verified(live.id);
    const refresher = h.under.svc.app.get(VerificationRefresher);

    h.stripe.addAccount(key, h.months.map((month) => ({ amount: 60_000, created: midMonth(month) })));
    expect(await refresher.refresh(live.id, 'stripe')).toBe('refreshed');
    expect((await h.listing(live.id)).verification?.revenue?.monthly_average_cents).toBe(60_000);
    expect(await h.snapshots(live.id)).toBe(2);

    h.stripe.accounts.get(key)!.behaviour = 'broken';
    expect(await refresher.refresh(live.id, 'stripe')).toBe('failing');
    const failing = await h.listing(live.id);
    expect(failing.verification?.revenue).toMatchObject({ state: 'current', monthly_average_cents: 60_000 });
    const [connection] = await h.under.ds.query('SELECT state, last_error FROM listing_verifications WHERE listing_id = $1', [live.id]);
    expect(connection.state).toBe('failing');
    expect(connection.last_error).not.toContain(key);

    // Two days without a good read: the figure shows as last verified, and the sweep takes the card's badge.
    await h.under.ds.query(`UPDATE verification_snapshots SET taken_at = taken_at - interval '49 hours' WHERE listing_id = $1`, [live.id]);
    expect((await h.listing(live.id)).verification?.revenue?.state).toBe('stale');
    await h.under.svc.app.get(VerificationRefreshJobs).sweepNow();
    expect(await h.flags(live.id)).toEqual({ revenue_verified: false, traffic_verified: false });

    h.stripe.accounts.get(key)!.behaviour = 'ok';
    expect(await refresher.refresh(live.id, 'stripe')).toBe('refreshed');
    expect(await h.flags(live.id)).toEqual({ revenue_verified: true, traffic_verified: false });

    h.stripe.accounts.get(key)!.behaviour = 'revoked';
    expect(await refresher.refresh(live.id, 'stripe')).toBe('revoked');
    const revoked = await h.listing(live.id);
    expect(revoked.revenue_verified).toBe(false);
    expect(revoked.verification?.revenue).toMatchObject({ state: 'revoked', monthly_average_cents: 60_000 });
  });

  it('reads at once after a connect, runs the schedule, ends it for a listing no longer live and starts it again once live', async () => {
    const seller = await h.person();
    const live = await h.under.live(seller.user_id);
    await h.connect(seller, live.id, h.account(10_000));
    await eventually(async () => expect(await h.snapshots(live.id)).toBe(1));
    const jobs = h.under.svc.app.get(VerificationRefreshJobs);
    const queue = new Queue(VERIFICATION_QUEUE, { connection: { url: h.under.svc.env.REDIS_URL }, prefix: h.under.svc.env.QUEUE_PREFIX });
    const scheduled = async () => (await queue.getJobSchedulers(0, -1)).map((s) => s.key);
    try {
      expect(await scheduled()).toContain(refreshSchedulerId(live.id, 'stripe'));
      // The scheduler's next run, brought forward: what the daily timer does, without waiting a day.
      await jobs.refreshNow(live.id, 'stripe');
      await eventually(async () => expect(await h.snapshots(live.id)).toBe(2));

      await h.under.ds.query(`UPDATE listings SET status = 'paused' WHERE id = $1`, [live.id]);
      await jobs.refreshNow(live.id, 'stripe');
      await eventually(async () => expect(await scheduled()).not.toContain(refreshSchedulerId(live.id, 'stripe')));
      expect(await h.snapshots(live.id)).toBe(2);
      // Not live, not scheduled by the sweep either.
      await jobs.reconcile();
      expect(await scheduled()).not.toContain(refreshSchedulerId(live.id, 'stripe'));

      // Live again: the sweep schedules it, and the first run is at once (it may have missed days).
      await h.under.ds.query(`UPDATE listings SET status = 'active' WHERE id = $1`, [live.id]);
      await jobs.sweepNow();
      expect(await scheduled()).toContain(refreshSchedulerId(live.id, 'stripe'));
      await eventually(async () => expect(await h.snapshots(live.id)).toBe(3));
    } finally {
      await queue.close();
    }
  });

  it('lets a refresh overtaken by a new connection change nothing, not even the new schedule', async () => {
    const seller = await h.person();
    const live = await h.under.live(seller.user_id);
    const first = h.account(10_000);
    await h.connect(seller, live.id, first);
    await h.verified(live.id);
    const jobs = h.under.svc.app.get(VerificationRefreshJobs);
    await jobs.unschedule(live.id, 'stripe');
    // The old key's read is held back while the seller connects another account.
    h.stripe.slowMs = 400;
    h.stripe.accounts.get(first)!.behaviour = 'slow';
    const pending = h.under.svc.app.get(VerificationRefresher).refresh(live.id, 'stripe');
    await eventually(() => expect(h.stripe.calls.some((c) => c.key === first && c.params.limit === '100')).toBe(true));
    await h.connect(seller, live.id, h.account(20_000));
    expect(await pending).toBe('superseded');
    await eventually(async () => expect((await h.listing(live.id)).verification?.revenue?.monthly_average_cents).toBe(20_000));
    const queue = new Queue(VERIFICATION_QUEUE, { connection: { url: h.under.svc.env.REDIS_URL }, prefix: h.under.svc.env.QUEUE_PREFIX });
    try {
      expect((await queue.getJobSchedulers(0, -1)).map((s) => s.key)).toContain(refreshSchedulerId(live.id, 'stripe'));
    } finally {
      await queue.close();
      h.stripe.slowMs = 10_000;
    }
  });

  it("ends a sold listing's source at its next refresh: the key is wiped, the figures stay as last verified", async () => {
    const seller = await h.person();
    const live = await h.under.live(seller.user_id);
    await h.connect(seller, live.id, h.account(25_000));
    await h.verified(live.id);
    await h.under.ds.query(`UPDATE listings SET status = 'sold' WHERE id = $1`, [live.id]);
    expect(await h.under.svc.app.get(VerificationRefresher).refresh(live.id, 'stripe')).toBe('ended');
    const [row] = await h.under.ds.query('SELECT state, octet_length(credential) AS bytes FROM listing_verifications WHERE listing_id = $1', [live.id]);
    expect(row).toEqual({ state: 'revoked', bytes: 0 });
    expect((await h.listing(live.id)).verification?.revenue).toMatchObject({ state: 'revoked', monthly_average_cents: 25_000 });
    expect(await h.flags(live.id)).toEqual({ revenue_verified: false, traffic_verified: false });
  });

  it("wipes the key of a listing sold while its schedule had ended, at the next sweep", async () => {
    const seller = await h.person();
    const live = await h.under.live(seller.user_id);
    await h.connect(seller, live.id, h.account(15_000));
    await h.verified(live.id);
    const jobs = h.under.svc.app.get(VerificationRefreshJobs);
    // Expired unsold: its run ended the schedule; then the seller accepts a bid after the close, and it is sold.
    await h.under.ds.query(`UPDATE listings SET status = 'expired' WHERE id = $1`, [live.id]);
    await jobs.unschedule(live.id, 'stripe');
    await h.under.ds.query(`UPDATE listings SET status = 'sold' WHERE id = $1`, [live.id]);
    await jobs.sweepNow();
    const [row] = await h.under.ds.query('SELECT state, octet_length(credential) AS bytes FROM listing_verifications WHERE listing_id = $1', [live.id]);
    expect(row).toEqual({ state: 'revoked', bytes: 0 });
  });

  it('reads at the sweep a connection never read since it was connected (its first read was not queued)', async () => {
    const seller = await h.person();
    const live = await h.under.live(seller.user_id);
    await h.connect(seller, live.id, h.account(12_000));
    await h.verified(live.id);
    // A reconnect whose first read Redis did not take: connected after its newest snapshot, its scheduler still there.
    await h.under.ds.query(`UPDATE listing_verifications SET connected_at = now() WHERE listing_id = $1`, [live.id]);
    expect(await h.snapshots(live.id)).toBe(1);
    await h.under.svc.app.get(VerificationRefreshJobs).reconcile();
    await eventually(async () => expect(await h.snapshots(live.id)).toBe(2));
  });
});
