import { randomUUID } from 'node:crypto';
import { RPC } from '@market/contracts';
import { parseEnvOrThrow, serviceEnv } from '@market/server-kit';
import { startServiceUnderTest, type ServiceUnderTest } from '@market/server-kit/testing';
import { listingsAppModule } from '../app.module';
import { buildListing } from '../testing/listing.factory';
import { ListingsRepository } from '../listings/listings.repository';

/** One sample's value from a scrape, matched by name and every given label; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('a service serves its metrics on its health port (ADR 0048)', () => {
  let svc: ServiceUnderTest;
  let healthUrl: string;
  const scrape = async () => {
    const response = await fetch(`${healthUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return response.text();
  };

  beforeAll(async () => {
    svc = await startServiceUnderTest('listings-service', (env) => {
      // Every scrape reads afresh: the test counts listings it just created.
      const config = parseEnvOrThrow(serviceEnv, { ...env, METRICS_READ_REUSE_MS: '0' });
      return { module: listingsAppModule(config), config };
    });
    healthUrl = (await svc.app.getUrl()).replace('[::1]', 'localhost');
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('counts a real NATS request in the server histogram by subject and outcome', async () => {
    const served = (text: string, subject: string, outcome: string) =>
      sample(text, 'market_nats_server_request_duration_seconds_count', { service: 'listings-service', subject, outcome }) ?? 0;
    const before = await scrape();

    await svc.rpc.call(RPC.listings.browse, { limit: 5 } as never, null);
    await expect(svc.rpc.call(RPC.listings.get, { id: randomUUID() }, null)).rejects.toMatchObject({ code: 'not_found' });

    const after = await scrape();
    expect(served(after, 'listings.browse', 'ok')).toBe(served(before, 'listings.browse', 'ok') + 1);
    expect(served(after, 'listings.get', 'not_found')).toBe(served(before, 'listings.get', 'not_found') + 1);
    // The subject label is the declared name: never the test's NATS_SUBJECT_PREFIX.
    expect(after).not.toContain(svc.env.NATS_SUBJECT_PREFIX);
    // The client side of the same requests, as the gateway and other services record them.
    expect(sample(after, 'market_nats_client_request_duration_seconds_count', { subject: 'listings.get', outcome: 'not_found' })).toBeGreaterThanOrEqual(1);
  });

  it('reads the pool, the outbox, its consumers and the business gauges on scrape', async () => {
    const listings = svc.app.get(ListingsRepository);
    const seller = randomUUID();
    const before = sample(await scrape(), 'market_listings', { status: 'pending' }) ?? 0;
    await listings.insert(seller, buildListing(), 'pending');
    await listings.insert(seller, buildListing(), 'pending');

    const text = await scrape();
    expect(sample(text, 'market_listings', { status: 'pending' })).toBe(before + 2);
    expect(sample(text, 'market_db_pool_connections', { state: 'max' })).toBeGreaterThan(0);
    expect(sample(text, 'market_db_pool_connections', { state: 'waiting' })).toBe(0);
    expect(sample(text, 'market_outbox_backlog', { service: 'listings-service' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'market_outbox_oldest_age_seconds', { service: 'listings-service' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'market_jetstream_consumer_pending', { durable: 'listings-service-bid_placed' })).toBe(0);
    expect(sample(text, 'market_dead_letters', { consumer: 'listings-service' })).toBe(0);
    expect(text).toMatch(/nodejs_eventloop_lag_seconds\{service="listings-service"\}/);
  });
});
