import { Client } from 'pg';
import { BrowseListingsQuerySchema, RPC } from '@market/contracts';
import { parseEnvOrThrow, serviceEnv, ServingState } from '@market/server-kit';
import { baseUrl, eventually, startServiceUnderTest, type ServiceUnderTest } from '@market/server-kit/testing';
import { listingsAppModule } from '../app.module';

/**
 * Draining on SIGTERM (ADR 0050), on a real service: /readyz turns 503 at once, the service leaves its queue group,
 * and the request it holds (blocked on a lock another session has) is still answered before draining ends.
 */
describe('a draining service', () => {
  let svc: ServiceUnderTest;
  let locker: Client;

  beforeAll(async () => {
    svc = await startServiceUnderTest('listings-service', (env) => {
      const config = parseEnvOrThrow(serviceEnv, env);
      // Browse from PostgreSQL (ADR 0081's index would answer an empty page without the table the test locks).
      return { module: listingsAppModule({ ...config, BROWSE_INDEX: 'off' }), config };
    });
    locker = new Client({ connectionString: svc.db.url });
    await locker.connect();
  });
  afterAll(async () => {
    await locker?.end();
    await svc?.stop();
  });

  it('reports not ready at once, takes no new request, and answers the one in flight before it ends', async () => {
    const health = await baseUrl(svc.app);
    expect((await fetch(`${health}/readyz`)).status).toBe(200);
    const query = BrowseListingsQuerySchema.parse({});
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE listings.listings IN ACCESS EXCLUSIVE MODE');
    const held = svc.rpc.call(RPC.listings.browse, query, null);
    // The service has taken the request once its two queries wait on the lock: the page's, and the counts' (the
    // verified listings are counted beside listing_counts). A sweep runs one query at a time, so two waiting are the
    // request's. (A query waits while it is parsed, before pg_stat_activity shows its text: only the count tells.)
    await eventually(async () => {
      const waiting = await locker.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'listings.listings'::regclass`);
      expect(waiting.rows[0].n).toBeGreaterThanOrEqual(2);
    }, 10_000);

    let drained: boolean | null = null;
    const draining = svc.app
      .get(ServingState)
      .drain({ delayMs: 0, timeoutMs: 20_000 })
      .then((result) => (drained = result));
    const ready = await fetch(`${health}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ detail: 'Shutting down' });

    // A request sent now reaches no replica (this was the only one): the caller's deadline answers it with a 503.
    const late = svc.rpc.call(RPC.listings.browse, query, null);
    await expect(late).rejects.toMatchObject({ status: 503 });
    expect(drained).toBeNull();

    await locker.query('COMMIT');
    await expect(held).resolves.toMatchObject({ listings: [] });
    await draining;
    expect(drained).toBe(true);
  }, 30_000);
});
