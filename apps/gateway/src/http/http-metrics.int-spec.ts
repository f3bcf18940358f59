import { randomUUID } from 'node:crypto';
import { startMetricsServer, type MetricsServer } from '@market/server-kit';
import { startGateway, type LoneGateway } from '../testing/start-gateway';

/** The count of one HTTP histogram series in a scrape, 0 when absent. */
function requests(text: string, route: string, method: string, status: string): number {
  const line = text
    .split('\n')
    .find((l) => l.startsWith('market_http_request_duration_seconds_count{') && [`route="${route}"`, `method="${method}"`, `status="${status}"`].every((p) => l.includes(p)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe("the gateway's HTTP metrics (ADR 0048)", () => {
  let gateway: LoneGateway;
  let metrics: MetricsServer;
  const scrape = async () => (await fetch(`http://127.0.0.1:${metrics.port}/metrics`)).text();

  beforeAll(async () => {
    // No service answers: listing requests end in a quick 503 once RPC_TIMEOUT_MS has passed.
    gateway = await startGateway({ RPC_TIMEOUT_MS: '200' });
    metrics = await startMetricsServer(0, '127.0.0.1');
  });
  afterAll(async () => {
    await metrics?.close();
    await gateway?.stop();
  });

  it('labels requests with the route template, never the raw path', async () => {
    const ids = [randomUUID(), randomUUID()];
    const before = await scrape();
    for (const id of ids) expect((await fetch(`${gateway.url}/api/listings/${id}`)).status).toBe(503);
    expect((await fetch(`${gateway.url}/api/no-such-route/${ids[0]}`)).status).toBe(404);

    const after = await scrape();
    expect(requests(after, '/api/listings/:id', 'GET', '503')).toBe(requests(before, '/api/listings/:id', 'GET', '503') + 2);
    expect(requests(after, 'unmatched', 'GET', '404')).toBe(requests(before, 'unmatched', 'GET', '404') + 1);
    for (const id of ids) expect(after).not.toContain(id);
    // The failed NATS requests behind them, by subject and outcome.
    expect(after).toMatch(/market_nats_client_request_duration_seconds_count\{[^}]*subject="listings\.get"[^}]*outcome="unavailable"[^}]*\} [1-9]/);
    expect(after).toMatch(/market_http_request_duration_seconds_count\{[^}]*service="gateway"/);
  });

  it('keeps metrics off the public port: /metrics and /api/metrics there are no scrape', async () => {
    for (const path of ['/metrics', '/api/metrics']) {
      const text = await (await fetch(`${gateway.url}${path}`)).text();
      expect(text).not.toContain('market_http_request_duration_seconds');
    }
  });

  it('answers 404 on the metrics port for anything but GET /metrics', async () => {
    expect((await fetch(`http://127.0.0.1:${metrics.port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metrics.port}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});
