// The cost of observability on the bid path (ADR 0048, 0049): phase C (each bidder on two auctions of its own) on
// fresh systems started one after the other in the same run, two with tracing off and nobody scraping, two as
// production runs them (tracing at its default ratio, spans exported over OTLP/HTTP to a local sink, every process's
// /metrics scraped each second, as Prometheus would), and a fifth recording every trace, for the record.
// Metric recording itself is always on (it is part of the code path), so "off" still counts requests; what the
// comparison measures is the span work, the exports and the scrapes on top of it.
import { createServer } from 'node:http';
import { dropIsolated, isolatedSystemEnv, SERVICES, startSystem } from './system.mjs';
import { apiClient, createAuctions, registerAccounts, stormPhase, waitForAuctions } from './bid-storm.mjs';

/** An OTLP/HTTP endpoint that takes every export and counts requests and bytes. */
async function startOtlpSink() {
  const stats = { requests: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on('data', (chunk) => (stats.bytes += chunk.length));
    req.on('end', () => {
      stats.requests += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, stats, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Fetches every process's metrics once a second until stopped; counts scrapes and failures. */
function startScraper(urls) {
  const stats = { scrapes: 0, failures: 0, bytes: 0 };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await Promise.all(
        urls.map(async (url) => {
          try {
            const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
            const text = await response.text();
            if (!response.ok) throw new Error(String(response.status));
            stats.scrapes += 1;
            stats.bytes += text.length;
          } catch {
            stats.failures += 1;
          }
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
  return { stats, stop: async () => ((stopped = true), await loop) };
}

/**
 * One system, set up like the main run, and phase C on it; `observed` turns tracing export and scraping on, at the
 * default sampling ratio or, with `everyTrace`, recording every trace.
 */
async function phaseC({ baseEnv, port, observed, everyTrace = false, bidders, listings, seconds, startingPrice, log }) {
  const env = { ...baseEnv, ...isolatedSystemEnv(observed ? 'benchobson' : 'benchoboff', port), LOG_LEVEL: 'warn', RATE_LIMIT_SCALE: '0' };
  delete env.OTEL_TRACES_SAMPLER_ARG;
  if (everyTrace) env.OTEL_TRACES_SAMPLER_ARG = '1';
  const sink = observed ? await startOtlpSink() : null;
  if (sink) env.OTEL_EXPORTER_OTLP_ENDPOINT = sink.url;
  const system = await startSystem({ env, quiet: true, log: () => {} });
  const api = apiClient(`http://127.0.0.1:${port}`, bidders + 8);
  let scraper = null;
  try {
    const adminToken = (await api.call('POST', '/auth/login', { login: system.admin.email, password: system.admin.password })).body?.access_token;
    if (!adminToken) throw new Error('admin login failed');
    const [sellerToken] = await registerAccounts(api, 'boseller', 1, adminToken);
    const tokens = await registerAccounts(api, 'bobidder', bidders, adminToken);
    const ids = await createAuctions(api, { sellerToken, adminToken, count: listings, startingPrice });
    await waitForAuctions(api, sellerToken, ids);
    if (observed) {
      const base = Number(env.HEALTH_PORT_BASE);
      scraper = startScraper([...SERVICES.map(([, offset]) => `http://127.0.0.1:${base + offset}/metrics`), `http://127.0.0.1:${base + 9}/metrics`]);
    }
    const turns = new Map();
    const own = (bidder) => {
      const turn = (turns.get(bidder) ?? 0) + 1;
      turns.set(bidder, turn);
      return ids[(bidder * 2 + (turn % 2)) % ids.length];
    };
    const phase = await stormPhase(api, { tokens, pick: own, startingPrice, seconds });
    if (scraper) await scraper.stop();
    log(`C ${everyTrace ? 'every trace' : observed ? 'observed' : 'plain'}: ${Math.round(phase.acceptedPerSecond)} accepted bids/s, p99 ${Math.round(phase.p99)} ms, ${phase.serverErrors} 5xx`);
    return { phase, scrapes: scraper?.stats ?? null, exports: sink?.stats ?? null };
  } finally {
    api.close();
    await system.stop();
    await sink?.close();
    await dropIsolated(env);
  }
}

/** The mean of the runs' accepted bids/s, and the runs themselves. */
function combine(runs) {
  const perSecond = runs.reduce((sum, run) => sum + run.phase.acceptedPerSecond, 0) / runs.length;
  return { runs, acceptedPerSecond: perSecond, serverErrors: runs.reduce((sum, run) => sum + run.phase.serverErrors, 0) };
}

/**
 * Phase C without and with observability on systems of their own, in the order plain, observed, observed, plain: a
 * system started after another runs slower (the database checkpoints the first one's writes; measured here: 19% for
 * two plain systems in a row), and the mirrored order cancels that drift. The ratio of the means is the overhead. With
 * `everyTrace`, a fifth system records every trace; its ratio to the plain mean is reported, not judged.
 */
export async function measureObservabilityOverhead({ everyTrace = true, ...options }) {
  const order = [false, true, true, false];
  const runs = [];
  for (const [index, observed] of order.entries()) runs.push({ index, observed, ...(await phaseC({ ...options, observed })) });
  const plain = combine(runs.filter((run) => !run.observed));
  const observed = combine(runs.filter((run) => run.observed));
  const full = everyTrace ? { index: order.length, observed: true, everyTrace: true, ...(await phaseC({ ...options, observed: true, everyTrace: true })) } : null;
  return {
    plain,
    observed,
    ratio: observed.acceptedPerSecond / plain.acceptedPerSecond,
    everyTrace: full ? { run: full, ratio: full.phase.acceptedPerSecond / plain.acceptedPerSecond } : null,
  };
}
