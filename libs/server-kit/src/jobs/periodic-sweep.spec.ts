import type { Logger } from '@nestjs/common';
import { metricsRegistry } from '../metrics/registry';
import { PeriodicSweep, sweepMetricName } from './periodic-sweep';

describe('PeriodicSweep', () => {
  const logger = () => {
    const warnings: string[] = [];
    return { warnings, logger: { warn: (line: string) => warnings.push(line) } as unknown as Logger };
  };

  it('joins a run under way instead of starting a second one', async () => {
    let runs = 0;
    let release: () => void = () => undefined;
    const { logger: log } = logger();
    const sweep = new PeriodicSweep({ label: 'Test sweep', intervalMs: 60_000, logger: log, onFailure: -1 }, async () => {
      runs += 1;
      await new Promise<void>((done) => (release = done));
      return runs;
    });
    const first = sweep.run();
    const second = sweep.run();
    release();
    expect(await Promise.all([first, second])).toEqual([1, 1]);
    // Once it has finished, the next run is a new one.
    const third = sweep.run();
    release();
    expect(await third).toBe(2);
  });

  it('logs a failure with its label, answers onFailure, and runs again next time', async () => {
    const { warnings, logger: log } = logger();
    let fail = true;
    const sweep = new PeriodicSweep({ label: 'Test sweep', intervalMs: 60_000, logger: log, onFailure: 0 }, async () => {
      if (fail) throw new Error('database away');
      return 3;
    });
    expect(await sweep.run()).toBe(0);
    expect(warnings).toEqual(['Test sweep failed: database away']);
    fail = false;
    expect(await sweep.run()).toBe(3);
    await sweep.stop();
  });

  it('records when a round last finished, and not when one fails (the sweeps SLO, docs/slo.md)', async () => {
    const { logger: log } = logger();
    const finishedAt = async () =>
      (await metricsRegistry.getSingleMetric('market_sweep_last_success_timestamp_seconds')?.get())?.values.find((v) => v.labels.sweep === 'gauge_test_sweep')?.value;
    let fail = true;
    const sweep = new PeriodicSweep({ label: 'Gauge test sweep', intervalMs: 60_000, logger: log, onFailure: 0 }, async () => {
      if (fail) throw new Error('provider away');
      return 1;
    });
    await sweep.run();
    expect(await finishedAt()).toBeUndefined();
    fail = false;
    const before = Date.now() / 1000;
    await sweep.run();
    expect(await finishedAt()).toBeGreaterThanOrEqual(before);
    expect(sweepMetricName('Escrow sweep')).toBe('escrow_sweep');
    expect(sweepMetricName('Ending-soon sweep')).toBe('ending_soon_sweep');
  });
});
