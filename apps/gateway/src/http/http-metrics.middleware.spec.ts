import express from 'express';
import type { AddressInfo } from 'node:net';
import { AllErrorsFilter, metricsRegistry, overloaded, unavailable } from '@market/server-kit';
import { httpMetrics } from './http-metrics.middleware';

/** The filter's HTTP side, as Nest calls it, for an Express handler that throws. */
const filter = new AllErrorsFilter();
const answer = (error: unknown, res: express.Response) =>
  filter.catch(error, { getType: () => 'http', switchToHttp: () => ({ getResponse: () => res }) } as never);

describe('market_http_shed_total: the deliberate 503s, apart from outages (docs/slo.md)', () => {
  let base: string;
  let close: () => void;
  beforeAll(async () => {
    const app = express();
    app.use(httpMetrics);
    app.post('/api/shed', (_req, res) => answer(overloaded('Too many bids on this listing right now', 1), res));
    app.post('/api/down', (_req, res) => answer(unavailable(), res));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  const shed = async (route: string) =>
    (await metricsRegistry.getSingleMetric('market_http_shed_total')?.get())?.values.find((v) => v.labels.route === route)?.value ?? 0;
  const fiveHundreds = async (route: string) =>
    (await metricsRegistry.getSingleMetric('market_http_request_duration_seconds')?.get())?.values.find(
      (v) => (v as { metricName?: string }).metricName === 'market_http_request_duration_seconds_count' && v.labels.route === route && v.labels.status === '503',
    )?.value ?? 0;

  it('counts an overloaded 503 as a shed and a 503 still; an outage only as a 503', async () => {
    const shedAnswer = await fetch(`${base}/api/shed`, { method: 'POST' });
    expect([shedAnswer.status, shedAnswer.headers.get('retry-after'), await shedAnswer.json()]).toEqual([503, '1', { type: '/api/errors/overloaded', title: 'Overloaded', status: 503, code: 'overloaded', detail: 'Too many bids on this listing right now' }]);
    expect((await fetch(`${base}/api/down`, { method: 'POST' })).status).toBe(503);
    // The counter is bumped when the answer finishes; the next request is a marker that it has.
    await fetch(`${base}/api/down`, { method: 'POST' });
    expect(await shed('/api/shed')).toBe(1);
    expect(await fiveHundreds('/api/shed')).toBe(1);
    expect(await shed('/api/down')).toBe(0);
    expect(await fiveHundreds('/api/down')).toBe(2);
  });
});
