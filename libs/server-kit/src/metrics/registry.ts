import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type CounterConfiguration, type GaugeConfiguration, type HistogramConfiguration } from 'prom-client';
import { withTimeout } from '../async/with-timeout';

/** The one registry of this process (ADR 0048): every metric of server-kit and the apps registers here. */
export const metricsRegistry = new Registry();

/** Latency buckets in seconds, from a fast cache hit to the gateway's RPC timeout and beyond. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** How long one collected gauge may take on a scrape before its samples are skipped. */
export const COLLECT_TIMEOUT_MS = 1000;

let defaultsStarted = false;
let readReuseMs = 0;

/**
 * Names this process in every sample (label `service`) and starts the default metrics once (event loop, heap, GC);
 * `readReuseMs` is how long scrapes reuse a gauge's query (METRICS_READ_REUSE_MS; 0 until a service sets it).
 */
export function initProcessMetrics(service: string, options: { readReuseMs?: number } = {}): void {
  metricsRegistry.setDefaultLabels({ service });
  if (options.readReuseMs !== undefined) readReuseMs = options.readReuseMs;
  if (defaultsStarted) return;
  defaultsStarted = true;
  collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: 20 });
}

/** The registry's counter of this name, created on first use (several app instances share a test process). */
export function counter<L extends string>(config: Omit<CounterConfiguration<L>, 'registers'>): Counter<L> {
  return (metricsRegistry.getSingleMetric(config.name) as Counter<L> | undefined) ?? new Counter({ ...config, registers: [metricsRegistry] });
}

/** The registry's histogram of this name, created on first use. */
export function histogram<L extends string>(config: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L> {
  return (metricsRegistry.getSingleMetric(config.name) as Histogram<L> | undefined) ?? new Histogram({ ...config, registers: [metricsRegistry] });
}

/** The registry's gauge of this name, created on first use. */
export function gauge<L extends string>(config: Omit<GaugeConfiguration<L>, 'registers' | 'collect'>): Gauge<L> {
  return (metricsRegistry.getSingleMetric(config.name) as Gauge<L> | undefined) ?? new Gauge({ ...config, registers: [metricsRegistry] });
}

/** How long scrapes of this process reuse a gauge's query (see initProcessMetrics). */
export function scrapeReadReuseMs(): number {
  return readReuseMs;
}

/** One sample a collected gauge reports: its labels and value. */
export interface Sample<L extends string> {
  labels: Partial<Record<L, string>>;
  value: number;
}

/** Reads samples at scrape time, e.g. a pool's counters or a cheap bounded query. */
export type SampleSource<L extends string> = () => Promise<Sample<L>[]> | Sample<L>[];

const collectFailures = () =>
  counter({ name: 'market_metrics_collect_failures_total', help: 'Gauge collections skipped on a scrape (a dependency down or slow)', labelNames: ['metric'] });

const sources = new Map<string, Set<SampleSource<string>>>();

/**
 * A gauge whose value is read from its sources on each scrape. Each source has COLLECT_TIMEOUT_MS; one that fails or
 * is late is skipped (counted in market_metrics_collect_failures_total), so PostgreSQL, NATS or Redis being down never
 * blocks or fails a scrape (ADR 0048). Returns a function that removes the source (on shutdown).
 */
export function collectedGauge<L extends string>(config: Omit<GaugeConfiguration<L>, 'registers' | 'collect'>, source: SampleSource<L>): () => void {
  // Registered up front: a scrape reports the failures of the scrapes before it (metrics are read side by side).
  collectFailures();
  let set = sources.get(config.name);
  if (!set) {
    const own = new Set<SampleSource<string>>();
    sources.set(config.name, own);
    set = own;
    new Gauge<L>({
      ...config,
      registers: [metricsRegistry],
      async collect() {
        this.reset();
        // An unlabelled gauge resets to 0; a skipped source must show as no sample, never as a made-up 0.
        this.remove({});
        const results = await Promise.all(
          [...own].map(async (read) => {
            try {
              return await withTimeout(Promise.resolve().then(read), COLLECT_TIMEOUT_MS, config.name);
            } catch {
              collectFailures().inc({ metric: config.name });
              return [];
            }
          }),
        );
        for (const sample of results.flat()) this.set(sample.labels as Partial<Record<L, string | number>>, sample.value);
      },
    });
  }
  set.add(source as SampleSource<string>);
  const added = set;
  return () => {
    added.delete(source as SampleSource<string>);
  };
}

/** The text a Prometheus scrape gets, and its content type. */
export async function scrapeMetrics(): Promise<{ body: string; contentType: string }> {
  return { body: await metricsRegistry.metrics(), contentType: metricsRegistry.contentType };
}
