import { Client } from 'pg';
import { eventually } from '@market/server-kit/testing';
import { bearer, post, signUp, startStack, type Stack } from '../support/start-stack';
import { createLiveListing } from '../support/auctions';

const ADMIN = { email: 'bid-queue-admin@example.com', password: 'bid-queue-admin-pass-1' };
const QUEUE_FULL = /Too many bids on this listing right now; nothing was changed/;

/**
 * A listing's bid queue is bounded (ADR 0058): while a batch waits for the auction's row (another session holds it),
 * at most BID_QUEUE_MAX bids wait behind it; one more is answered at once 503 with Retry-After through the gateway.
 */
describe('a full bid queue through the gateway (ADR 0058)', () => {
  let stack: Stack;
  let adminToken: string;
  let locker: Client;

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'admin', 'listings', 'bidding'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '0', BID_QUEUE_MAX: '2' },
    });
    adminToken = (await post(`${stack.url}/api/auth/login`, { login: ADMIN.email, password: ADMIN.password })).body.access_token;
    locker = new Client({ connectionString: stack.db.url, application_name: 'test-bid-locker' });
    await locker.connect();
  }, 90_000);
  afterAll(async () => {
    await locker?.query('ROLLBACK').catch(() => undefined);
    await locker?.end();
    await stack?.stop();
  });

  // Sessions of this database waiting for a lock (their queries are another role's to read; who blocks them is not).
  const waitingOnLock = async () =>
    Number((await locker.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND cardinality(pg_blocking_pids(pid)) > 0`)).rows[0].n);

  it('answers 503 with Retry-After beyond the queue bound, changes nothing for it, and takes the queued bids once the row is free', async () => {
    const seller = await signUp(stack.url);
    const bidders = await Promise.all(Array.from({ length: 5 }, () => signUp(stack.url)));
    const listing = await createLiveListing(stack.url, seller.token, adminToken, { starting_price: 500 });
    const auction = async () => (await locker.query('SELECT status, bid_count FROM bidding.auctions WHERE listing_id = $1', [listing.id])).rows[0];
    await eventually(async () => expect(await auction()).toMatchObject({ status: 'active' }), 15_000);

    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM bidding.auctions WHERE listing_id = $1 FOR UPDATE', [listing.id]);
    type Answer = Awaited<ReturnType<typeof post>> & { amount: number };
    const answers: Answer[] = [];
    const send = (token: string, amount: number) => post(`${stack.url}/api/bids`, { listing_id: listing.id, amount }, bearer(token)).then((a) => answers.push({ ...a, amount }));
    let all: Promise<unknown>;
    try {
      // The first bid's batch waits for the row; four more arrive meanwhile: two wait, the rest are refused at once (had
      // the first batch given up first, one of the four starts the next batch and one is still refused).
      const first = send(bidders[0].token, 500);
      await eventually(async () => expect(await waitingOnLock()).toBeGreaterThanOrEqual(1), 10_000);
      const more = bidders.slice(1).map((b, i) => send(b.token, 600 + 100 * i));
      all = Promise.all([first, ...more]);
      await eventually(() => expect(answers.length).toBeGreaterThanOrEqual(1), 10_000);
    } finally {
      await locker.query('ROLLBACK');
    }
    await all;
    const full = answers.filter((a) => a.status === 503 && QUEUE_FULL.test(a.body.detail));
    expect(full.length).toBeGreaterThanOrEqual(1);
    for (const refused of full) expect(refused.headers.get('retry-after')).toBe('1');
    const placed = answers.filter((a) => a.status === 201);
    // A batch whose wait for the row passed lock_timeout (2 s, on a loaded machine) is a 503 too, and writes nothing.
    const busy = answers.filter((a) => a.status === 503 && /busy right now/.test(a.body.detail));
    expect(answers.filter((a) => !full.includes(a) && !placed.includes(a) && !busy.includes(a) && a.status !== 400)).toEqual([]);
    // What a full queue refused was not stored; what was answered 201 was.
    const stored = (await locker.query('SELECT amount::float8 AS amount FROM bidding.bids WHERE listing_id = $1', [listing.id])).rows.map((r) => r.amount as number);
    expect(stored.sort()).toEqual(placed.map((a) => a.amount).sort());
    expect((await auction()).bid_count).toBe(placed.length);
  }, 60_000);
});
