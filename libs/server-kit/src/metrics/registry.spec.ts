import { AppError } from '../errors/app-error';
import { collectedGauge, COLLECT_TIMEOUT_MS, counter, histogram, initProcessMetrics, metricsRegistry, scrapeMetrics } from './registry';
import { observeRpcCall, outcomeOf } from './rpc.metrics';
import { scrapeRead, singleFlight } from './single-flight';

/** The value of one sample in the scrape text, or undefined when the scrape has no such line. */
async function sampleValue(name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const { body } = await scrapeMetrics();
  for (const line of body.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const wanted = Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`));
    if (wanted) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('metrics registry (ADR 0048)', () => {
  beforeAll(() => initProcessMetrics('unit-test'));

  it('labels every sample with the service and carries the default process metrics', async () => {
    const { body, contentType } = await scrapeMetrics();
    expect(contentType).toContain('text/plain');
    expect(body).toMatch(/nodejs_eventloop_lag_seconds\{service="unit-test"\}/);
    expect(body).toMatch(/nodejs_heap_size_used_bytes\{service="unit-test"\}/);
  });

  it('gives the same metric to every caller of one name instead of failing on a second registration', () => {
    const first = counter({ name: 'unit_twice_total', help: 'x', labelNames: ['a'] });
    expect(counter({ name: 'unit_twice_total', help: 'x', labelNames: ['a'] })).toBe(first);
    const h = histogram({ name: 'unit_twice_seconds', help: 'x' });
    expect(histogram({ name: 'unit_twice_seconds', help: 'x' })).toBe(h);
  });

  it('reads collected gauges on scrape, skipping a source that fails or hangs without failing the scrape', async () => {
    let value = 3;
    const removeGood = collectedGauge({ name: 'unit_collected', help: 'x', labelNames: ['source'] }, () => [{ labels: { source: 'good' }, value }]);
    const removeBad = collectedGauge({ name: 'unit_collected', help: 'x', labelNames: ['source'] }, async () => {
      throw new Error('PostgreSQL is down');
    });
    const removeSlow = collectedGauge({ name: 'unit_collected', help: 'x', labelNames: ['source'] }, () => new Promise(() => undefined));
    const failures = async () => {
      const metric = metricsRegistry.getSingleMetric('market_metrics_collect_failures_total');
      const values = metric ? (await metric.get()).values : [];
      return values.find((v) => v.labels.metric === 'unit_collected')?.value ?? 0;
    };
    const failuresBefore = await failures();

    const started = Date.now();
    expect(await sampleValue('unit_collected', { source: 'good' })).toBe(3);
    expect(Date.now() - started).toBeLessThan(COLLECT_TIMEOUT_MS + 500);
    expect(await failures()).toBe(failuresBefore + 2);

    value = 5;
    expect(await sampleValue('unit_collected', { source: 'good' })).toBe(5);
    removeGood();
    removeBad();
    removeSlow();
    expect(await sampleValue('unit_collected', { source: 'good' })).toBeUndefined();
  });

  it('shows an unlabelled gauge whose source failed as no sample, not as 0', async () => {
    let down = false;
    const remove = collectedGauge({ name: 'unit_unlabelled', help: 'x' }, async () => {
      if (down) throw new Error('NATS is down');
      return [{ labels: {}, value: 4 }];
    });
    expect(await sampleValue('unit_unlabelled')).toBe(4);
    down = true;
    expect(await sampleValue('unit_unlabelled')).toBeUndefined();
    remove();
  });

  it('times client requests by subject and outcome: ok, or the error code', async () => {
    const count = (outcome: string) => sampleValue('market_nats_client_request_duration_seconds_count', { subject: 'unit.subject', outcome });
    const okBefore = (await count('ok')) ?? 0;
    const missingBefore = (await count('not_found')) ?? 0;
    await expect(observeRpcCall('unit.subject', async () => 'answer')).resolves.toBe('answer');
    await expect(observeRpcCall('unit.subject', async () => Promise.reject(new AppError('not_found', 'gone')))).rejects.toThrow('gone');
    expect(await count('ok')).toBe(okBefore + 1);
    expect(await count('not_found')).toBe(missingBefore + 1);
  });

  it('names an unexpected failure internal', () => {
    expect(outcomeOf(new Error('boom'))).toBe('internal');
    expect(outcomeOf(new AppError('unavailable', 'x'))).toBe('unavailable');
    expect(outcomeOf(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }))).toBe('database_unavailable');
  });

  it('does not grow with label sets it never saw: the registry holds each metric once', async () => {
    const names = (await metricsRegistry.getMetricsAsJSON()).map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('singleFlight', () => {
  it('shares one read among callers while it runs, and reads again afterwards', async () => {
    let reads = 0;
    let finish: (value: number) => void = () => undefined;
    const read = singleFlight(() => {
      reads += 1;
      return new Promise<number>((resolve) => (finish = resolve));
    });
    const first = read();
    const second = read();
    expect(reads).toBe(1);
    finish(7);
    expect(await Promise.all([first, second])).toEqual([7, 7]);
    const third = read();
    expect(reads).toBe(2);
    finish(8);
    expect(await third).toBe(8);
  });
});

describe('scrapeRead', () => {
  afterEach(() => initProcessMetrics('unit-test', { readReuseMs: 0 }));

  it('reuses the last answer within the reuse window, reads again after it, and never reuses a failure', async () => {
    initProcessMetrics('unit-test', { readReuseMs: 10_000 });
    let clock = 1_000;
    const answers: Array<number | Error> = [1, new Error('database down'), 3];
    let reads = 0;
    const read = scrapeRead(async () => {
      const answer = answers[reads++];
      if (answer instanceof Error) throw answer;
      return answer;
    }, () => clock);
    expect(await read()).toBe(1);
    clock += 9_999;
    expect(await read()).toBe(1);
    expect(reads).toBe(1);
    clock += 1;
    await expect(read()).rejects.toThrow('database down');
    expect(await read()).toBe(3);
    expect(reads).toBe(3);
  });

  it('reads on every call with no reuse window (the default until a service sets one)', async () => {
    let reads = 0;
    const read = scrapeRead(async () => ++reads);
    expect([await read(), await read()]).toEqual([1, 2]);
  });
});
