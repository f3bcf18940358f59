import { parseEnvOrThrow, serviceEnv } from '@market/server-kit';
import { eventually, startServiceUnderTest, startTcpProxy, type ServiceUnderTest, type TcpProxy } from '@market/server-kit/testing';
import { listingsAppModule } from '../app.module';

const has = (text: string, name: string) => text.split('\n').some((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
const failures = (text: string, metric: string) =>
  Number(
    text
      .split('\n')
      .find((line) => line.startsWith('market_metrics_collect_failures_total{') && line.includes(`metric="${metric}"`))
      ?.split(' ')
      .pop() ?? 0,
  );

describe('a scrape while PostgreSQL and NATS are unreachable (ADR 0048)', () => {
  let svc: ServiceUnderTest;
  let pg: TcpProxy;
  let nats: TcpProxy;
  let healthUrl: string;
  const scrape = async () => {
    const started = Date.now();
    const response = await fetch(`${healthUrl}/metrics`);
    return { status: response.status, text: await response.text(), ms: Date.now() - started };
  };

  beforeAll(async () => {
    pg = await startTcpProxy('127.0.0.1', 5432);
    nats = await startTcpProxy('127.0.0.1', 4222);
    svc = await startServiceUnderTest(
      'listings-service',
      (env) => {
        // The service reaches its database through the proxy the test cuts (the test database keeps its name).
        const database = new URL(env.DATABASE_URL);
        database.host = `127.0.0.1:${pg.port}`;
        // Every scrape reads afresh (no reuse window): the test cuts the dependencies between two scrapes.
        const config = parseEnvOrThrow(serviceEnv, { ...env, DATABASE_URL: database.toString(), METRICS_READ_REUSE_MS: '0' });
        return { module: listingsAppModule(config), config };
      },
      { NATS_URL: nats.url('nats') },
    );
    healthUrl = (await svc.app.getUrl()).replace('[::1]', 'localhost');
  });
  afterAll(async () => {
    await nats?.resume().catch(() => undefined);
    await pg?.resume().catch(() => undefined);
    await svc?.stop();
    await nats?.close();
    await pg?.close();
  });

  it('answers at once with what it can read, skips the rest, and reads it all again once they are back', async () => {
    const healthy = await scrape();
    expect(healthy.status).toBe(200);
    expect(has(healthy.text, 'market_outbox_backlog')).toBe(true);
    expect(has(healthy.text, 'market_jetstream_consumer_pending')).toBe(true);

    await pg.pause();
    await nats.pause();
    const cut = await scrape();
    expect(cut.status).toBe(200);
    // Each source has 1 s; they run side by side, so the scrape takes about that, never a dependency's own timeout.
    expect(cut.ms).toBeLessThan(2500);
    expect(has(cut.text, 'nodejs_eventloop_lag_seconds')).toBe(true);
    expect(has(cut.text, 'market_db_pool_connections')).toBe(true);
    expect(has(cut.text, 'market_outbox_backlog')).toBe(false);
    expect(has(cut.text, 'market_listings')).toBe(false);
    expect(has(cut.text, 'market_jetstream_consumer_pending')).toBe(false);
    // The failures of one scrape show from the next one on (all metrics are read side by side).
    const next = await scrape();
    expect(next.status).toBe(200);
    expect(failures(next.text, 'market_outbox_backlog')).toBeGreaterThan(failures(healthy.text, 'market_outbox_backlog'));
    expect(failures(next.text, 'market_jetstream_consumer_pending')).toBeGreaterThan(failures(healthy.text, 'market_jetstream_consumer_pending'));

    await pg.resume();
    await nats.resume();
    await eventually(async () => {
      const back = await scrape();
      expect(has(back.text, 'market_outbox_backlog')).toBe(true);
      expect(has(back.text, 'market_jetstream_consumer_pending')).toBe(true);
    }, 20_000);
  });
});
