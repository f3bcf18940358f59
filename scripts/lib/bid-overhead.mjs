// The cost of observability on the bid path (ADR 0048, 0049): phase C (each bidder on two auctions of its own) on
// fresh systems started one after the other in the same run, in rounds of two with tracing off and nobody scraping and two as
// production runs them (tracing at its default ratio, spans exported over OTLP/HTTP to a local sink, every process's
// /metrics scraped at the interval our Prometheus configuration sets), and a fifth recording every trace and scraped
// each second, the harshest setting, for the record.
// Metric recording itself is always on (it is part of the code path), so "off" still counts requests; what the
// comparison measures is the span work, the exports and the scrapes on top of it.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { dropIsolated, isolatedSystemEnv, SERVICES, startSystem } from './system.mjs';
import { apiClient, createAuctions, registerAccounts, stormPhase, waitForAuctions } from './bid-storm.mjs';

/**
 * The scrape interval production uses: deploy/observability/prometheus.yml's global scrape_interval (ADR 0048), unless
 * BENCH_SCRAPE_MS says otherwise.
 */
export function productionScrapeMs(env = process.env) {
  if (env.BENCH_SCRAPE_MS) return Number(env.BENCH_SCRAPE_MS);
  const config = readFileSync(new URL('../../deploy/observability/prometheus.yml', import.meta.url), 'utf8');
  const match = /scrape_interval:\s*(\d+)(ms|s|m)\b/.exec(config);
  if (!match) throw new Error('deploy/observability/prometheus.yml has no scrape_interval');
  return Number(match[1]) * { ms: 1, s: 1000, m: 60_000 }[match[2]];
}

/**
 * The OTLP sink and the scraper in a child process (bid-observer.mjs), not in this one: this process is the load
 * generator, one event loop for 50 bidders, and reading the exports and fetching seven /metrics a second on it
 * delayed the bidders' next requests, which the runs counted as the system's cost (ADR 0048). The child still runs on
 * this machine, so its CPU is still charged to the observed runs. Returns ask(message, replyType) and the child.
 */
function startObserver() {
  const child = fork(new URL('./bid-observer.mjs', import.meta.url), { stdio: 'ignore' });
  const ask = (message, type) =>
    new Promise((resolve, reject) => {
      const onMessage = (reply) => {
        if (reply.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(reply);
      };
      const onExit = (code) => reject(new Error(`the observer process exited (${code}) before answering ${message.type}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send(message);
    });
  return { ask, child };
}

/**
 * Writes PostgreSQL's dirty pages out before a storm (CHECKPOINT), so the checkpoint of the systems before it does not
 * fall inside it: the largest source of the runs' spread (two plain systems in a row differed by up to a fifth). Needs
 * a superuser, as the bench's own database is; without one the storm runs as it is, and the run says so.
 */
export async function checkpoint(databaseUrl, log) {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    await client.query('CHECKPOINT');
    return true;
  } catch (error) {
    log(`no CHECKPOINT before the storm (${error.message}): the runs' spread will be wider`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * One system, set up like the main run, and phase C on it; `observed` turns tracing export and scraping on, at the
 * default sampling ratio or, with `everyTrace`, recording every trace.
 */
async function phaseC({ baseEnv, port, observed, everyTrace = false, bidders, listings, seconds, startingPrice, log }) {
  const env = { ...baseEnv, ...isolatedSystemEnv(observed ? 'benchobson' : 'benchoboff', port), LOG_LEVEL: 'warn', RATE_LIMIT_SCALE: '0' };
  delete env.OTEL_TRACES_SAMPLER_ARG;
  if (everyTrace) env.OTEL_TRACES_SAMPLER_ARG = '1';
  const observer = observed ? startObserver() : null;
  const api = apiClient(`http://127.0.0.1:${port}`, bidders + 8);
  let system = null;
  try {
    if (observer) env.OTEL_EXPORTER_OTLP_ENDPOINT = (await observer.ask({ type: 'sink' }, 'sink')).url;
    system = await startSystem({ env, quiet: true, log: () => {} });
    const adminToken = (await api.call('POST', '/auth/login', { login: system.admin.email, password: system.admin.password })).body?.access_token;
    if (!adminToken) throw new Error('admin login failed');
    const [sellerToken] = await registerAccounts(api, 'boseller', 1, adminToken);
    const tokens = await registerAccounts(api, 'bobidder', bidders, adminToken);
    const ids = await createAuctions(api, { sellerToken, adminToken, count: listings, startingPrice });
    await waitForAuctions(api, sellerToken, ids);
    if (observer) {
      const base = Number(env.HEALTH_PORT_BASE);
      const urls = [...SERVICES.map(([, offset]) => `http://127.0.0.1:${base + offset}/metrics`), `http://127.0.0.1:${base + 9}/metrics`];
      await observer.ask({ type: 'scrape', urls, intervalMs: everyTrace ? 1000 : productionScrapeMs() }, 'scraping');
    }
    const checkpointed = await checkpoint(env.DATABASE_URL, log);
    const turns = new Map();
    const own = (bidder) => {
      const turn = (turns.get(bidder) ?? 0) + 1;
      turns.set(bidder, turn);
      return ids[(bidder * 2 + (turn % 2)) % ids.length];
    };
    const phase = await stormPhase(api, { tokens, pick: own, startingPrice, seconds });
    const stats = observer ? await observer.ask({ type: 'stop' }, 'stats') : null;
    log(`C ${everyTrace ? 'every trace' : observed ? 'observed' : 'plain'}: ${Math.round(phase.acceptedPerSecond)} accepted bids/s, p99 ${Math.round(phase.p99)} ms, ${phase.serverErrors} 5xx`);
    return { phase, checkpointed, scrapes: stats?.scrapes ?? null, exports: stats?.exports ?? null };
  } finally {
    api.close();
    await system?.stop();
    if (observer && observer.child.exitCode === null) observer.child.kill();
    await dropIsolated(env);
  }
}

/** The mean of the runs' accepted bids/s, and the runs themselves. */
function combine(runs) {
  const perSecond = runs.reduce((sum, run) => sum + run.phase.acceptedPerSecond, 0) / runs.length;
  return { runs, acceptedPerSecond: perSecond, serverErrors: runs.reduce((sum, run) => sum + run.phase.serverErrors, 0) };
}

/**
 * Phase C without and with observability on systems of their own, in rounds of plain, observed, observed, plain (a
 * system started after another may run slower, and the mirrored order cancels such a drift), each storm after a
 * CHECKPOINT. The ratio of the means over all rounds is the overhead; each round's own ratio shows the spread. With
 * `everyTrace`, a last system records every trace and is scraped each second; its ratio to the plain mean is
 * reported, not judged.
 */
export async function measureObservabilityOverhead({ everyTrace = true, rounds = 2, ...options }) {
  const order = Array.from({ length: rounds }, () => [false, true, true, false]).flat();
  const runs = [];
  for (const [index, observed] of order.entries()) runs.push({ index, round: Math.floor(index / 4), observed, ...(await phaseC({ ...options, observed })) });
  const plain = combine(runs.filter((run) => !run.observed));
  const observed = combine(runs.filter((run) => run.observed));
  const roundRatios = Array.from({ length: rounds }, (_, round) => {
    const of = (wanted) => combine(runs.filter((run) => run.round === round && run.observed === wanted)).acceptedPerSecond;
    return of(true) / of(false);
  });
  const full = everyTrace ? { index: order.length, observed: true, everyTrace: true, ...(await phaseC({ ...options, observed: true, everyTrace: true })) } : null;
  return {
    plain,
    observed,
    ratio: observed.acceptedPerSecond / plain.acceptedPerSecond,
    roundRatios,
    everyTrace: full ? { run: full, ratio: full.phase.acceptedPerSecond / plain.acceptedPerSecond } : null,
  };
}
