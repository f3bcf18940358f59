// npm run bench:bids: bid storms on an isolated system. Phase A: BENCH_BIDDERS bidders on one hot auction (with
// BENCH_VIEWERS websocket viewers on it); phase B: the same bidders over BENCH_LISTINGS auctions; phase C: each bidder
// on two auctions of its own (no lost races); phase D: as B, each bidder bidding every BENCH_PACE_MS; phase E: one hot
// auction with varied amounts and proxy maximums (ADR 0055), decided bids/s against the single-row ceiling; phase F:
// BENCH_F_VIEWERS websocket viewers on one gateway while bids flow, against BENCH_VIEWERS; phase G: B and C with two
// bidding replicas against one; phase S: C on a system with the bus's signatures and seals on and on a second one with
// them off (BUS_CHECKS=off), storms alternating for BENCH_S_ROUNDS rounds. After every phase the end state is checked
// in PostgreSQL; the ceilings are measured from pg directly. BENCH_PHASES picks phases (e.g. E,F,G or S; 0 for none).
// Every system runs with NODE_ENV=test (BUS_CHECKS=off is refused without it, and so are this machine's NATS and Redis,
// which take clients without credentials). Results go to docs/benchmarks.md, a section per group (BENCH_DOCS=0 leaves
// it alone). Any 5xx (but a 503 with Retry-After, counted apart) or failed check fails the run and writes nothing.
// Targets: end to end >= 50% of the ceiling, p99 < 100 ms at 50 bidders, websocket delivery p95 < 100 ms, the bus's
// cryptography costs at most 10% of C's accepted bids/s.
import pg from 'pg';
import os from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { dropIsolated, isolatedSystemEnv, ROOT, startSystem } from './lib/system.mjs';
import { countCpu, systemCpuGroups } from './lib/process-cpu.mjs';
import { apiClient, createAuctions, registerAccounts, registerBidders, stormPhase, waitForAuctions } from './lib/bid-storm.mjs';
import { proxyStormPhase } from './lib/bid-proxy-storm.mjs';
import { startViewers } from './lib/bid-viewers.mjs';
import { checkEndState } from './lib/bid-checks.mjs';
import { measureCeiling } from './lib/bid-ceiling.mjs';
import { measureObservabilityOverhead, productionScrapeMs } from './lib/bid-overhead.mjs';
import { measureBusChecks, warmUpSeconds } from './lib/bid-signatures.mjs';
import { deliveryStats, HEADINGS, ms, sectionAD, sectionE, sectionF, sectionG, sectionS, writeSection } from './lib/bid-report.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CEILING_SECONDS = Number(process.env.BENCH_CEILING_SECONDS ?? SECONDS);
const BIDDERS = Number(process.env.BENCH_BIDDERS ?? 50);
const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100);
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 200);
const STARTING_PRICE = Number(process.env.BENCH_STARTING_PRICE ?? 950);
const WRITE_DOCS = process.env.BENCH_DOCS !== '0';
const DOCS_FILE = process.env.BENCH_DOCS_FILE ?? join(ROOT, 'docs', 'benchmarks.md');
const PORT = Number(process.env.BENCH_PORT ?? 3980);
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 250);
// Phase E: amounts are the minimum plus 0 to this many D6 increments (maximums up to twice as many above them).
const E_STEPS = Number(process.env.BENCH_E_STEPS ?? 10);
// Phase F: the large crowd of viewers, and the bids they watch (a few bidders, paced).
const F_VIEWERS = Number(process.env.BENCH_F_VIEWERS ?? 5000);
const F_BIDDERS = Number(process.env.BENCH_F_BIDDERS ?? 10);
const F_PACE_MS = Number(process.env.BENCH_F_PACE_MS ?? 1000);
const F_BATCH = 100;
const F_THREADS = Math.max(1, Math.ceil(F_VIEWERS / 2500));
const TARGETS = { share: 0.5, p99Ms: 100, wsP95Ms: 100, overhead: 0.1, busChecks: 0.1 };
// Phase C once more on two fresh systems, tracing and scraping off then on (BENCH_OVERHEAD=0 skips it).
const OVERHEAD = process.env.BENCH_OVERHEAD !== '0';
// Rounds of plain, observed, observed, plain systems (ADR 0048): more rounds, a narrower estimate, a longer bench.
const OVERHEAD_ROUNDS = Number(process.env.BENCH_OVERHEAD_ROUNDS ?? 2);
if (!Number.isInteger(OVERHEAD_ROUNDS) || OVERHEAD_ROUNDS < 1) {
  console.error(`BENCH_OVERHEAD_ROUNDS must be a whole number from 1, not ${process.env.BENCH_OVERHEAD_ROUNDS}`);
  process.exit(1);
}
// Phase S: rounds of a storm on the BUS_CHECKS=on system, then one on the BUS_CHECKS=off system.
const S_ROUNDS = Number(process.env.BENCH_S_ROUNDS ?? 5);
if (!Number.isInteger(S_ROUNDS) || S_ROUNDS < 1) {
  console.error(`BENCH_S_ROUNDS must be a whole number from 1, not ${process.env.BENCH_S_ROUNDS}`);
  process.exit(1);
}
// BENCH_PHASES: unset runs A to G and S; 0 runs only the overhead runs (the Bids sections stay); else the letters to run.
const SELECTED = process.env.BENCH_PHASES === undefined ? 'ABCDEFGS' : process.env.BENCH_PHASES === '0' ? '' : process.env.BENCH_PHASES.toUpperCase();
const RUN = Object.fromEntries([...'ABCDEFGS'].map((letter) => [letter, SELECTED.includes(letter)]));
if (/[^A-GS,\s]/.test(SELECTED)) {
  console.error(`BENCH_PHASES must be 0 or letters A to G and S (e.g. E,F,G), not ${process.env.BENCH_PHASES}`);
  process.exit(1);
}
// Phases A to G share one system; S starts two of its own after them.
const PHASES = [...'ABCDEFG'].some((letter) => RUN[letter]);
const fdLimit = Number(spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim()) || null;
const wsCap = Math.max(100, VIEWERS + 10, RUN.F ? F_VIEWERS + 10 : 0);
const settings = {
  bidders: BIDDERS, seconds: SECONDS, ceilingSeconds: CEILING_SECONDS, listings: LISTINGS, viewers: VIEWERS, startingPrice: STARTING_PRICE,
  paceMs: PACE_MS, targets: TARGETS, eSteps: E_STEPS, fBidders: F_BIDDERS, fPaceMs: F_PACE_MS, fBatch: F_BATCH, fThreads: F_THREADS, wsCap, fdLimit,
  sRounds: S_ROUNDS, sWarmUpSeconds: warmUpSeconds(SECONDS),
};

const env = {
  ...isolatedSystemEnv('benchbids', PORT),
  // Every system of the benchmark (the phases', S's and the overhead runs') runs as a test: phase S's BUS_CHECKS=off is
  // refused otherwise, and so is this machine's NATS and Redis, which take clients without credentials (ADR 0065, 0066).
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_SCALE: '0',
  // Every viewer connects from this one machine (the gateway caps sockets per address, 100 by default).
  WS_MAX_SOCKETS_PER_ADDRESS: String(wsCap),
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
};
const log = (line) => console.log(`[bench:bids] ${line}`);
const summary = (name, phase) =>
  `${name}: ${phase.accepted.length} accepted of ${phase.requests} (${Math.round(phase.acceptedPerSecond)}/s), p50 ${ms(phase.p50)} p99 ${ms(phase.p99)} ms, ${phase.serverErrors} 5xx${phase.shed ? `, ${phase.shed} shed (503)` : ''}`;

let failed = false;
/** The selected phases, the end-state checks after each, and the ceilings, on one system; writes their sections. */
async function bidPhases() {
  if (RUN.F && fdLimit !== null && fdLimit < F_VIEWERS + 1024) {
    throw new Error(`phase F opens ${F_VIEWERS} sockets, but ulimit -n is ${fdLimit}: raise it (ulimit -n ${F_VIEWERS + 4096}) or lower BENCH_F_VIEWERS`);
  }
  const system = await startSystem({ env, quiet: true, log: () => {} });
  const baseUrl = `http://127.0.0.1:${PORT}`;
  const api = apiClient(baseUrl, BIDDERS + 8);
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 4 });
  const accepted = [];
  const listingIds = [];
  const results = {};
  const checksAfter = {};
  const problems = [];
  /** Runs the end-state checks over everything so far and records a phase's failures. */
  const check = async (name, phases) => {
    for (const phase of phases) for (const bid of phase.accepted) accepted.push(bid);
    const checks = await checkEndState(pool, { accepted, listingIds });
    for (const c of checks.filter((c) => !c.ok)) log(`FAIL after ${name}: ${c.name}: ${c.detail}`);
    log(`end state after ${name}: ${checks.filter((c) => c.ok).length} of ${checks.length} checks hold`);
    problems.push(...phases.filter((p) => p.serverErrors).map((p) => `${name}: ${p.serverErrors} 5xx answers`));
    problems.push(...phases.filter((p) => p.networkErrors).map((p) => `${name}: ${p.networkErrors} requests without an answer`));
    problems.push(...checks.filter((c) => !c.ok).map((c) => `${name}: check failed: ${c.name}`));
    checksAfter[name] = checks;
  };
  try {
    const setupStart = Date.now();
    const adminToken = (await api.call('POST', '/auth/login', { login: system.admin.email, password: system.admin.password })).body?.access_token;
    if (!adminToken) throw new Error('admin login failed');
    const [sellerToken] = await registerAccounts(api, 'bbseller', 1, adminToken);
    const bidders = await registerBidders(api, 'bbidder', Math.max(BIDDERS, RUN.F ? F_BIDDERS : 0), adminToken);
    const tokens = bidders.slice(0, BIDDERS).map((b) => b.token);
    const bidderIds = bidders.map((b) => b.id);
    const wantSpread = RUN.B || RUN.C || RUN.D || RUN.G;
    const counts = { hot: RUN.A ? 1 : 0, e: RUN.E ? 1 : 0, f: RUN.F ? 1 : 0, spread: wantSpread ? LISTINGS : 0 };
    const ids = await createAuctions(api, { sellerToken, adminToken, count: counts.hot + counts.e + counts.f + counts.spread, startingPrice: STARTING_PRICE });
    await waitForAuctions(api, sellerToken, ids);
    const take = (n) => ids.splice(0, n);
    const [hotId] = take(counts.hot);
    const [eId] = take(counts.e);
    const [fId] = take(counts.f);
    const spreadIds = take(counts.spread);
    log(`${bidders.length} bidders, ${counts.hot + counts.e + counts.f + counts.spread} auctions ready in ${((Date.now() - setupStart) / 1000).toFixed(1)} s; phases ${[...'ABCDEFG'].filter((l) => RUN[l]).join(', ')}`);

    const anyAuction = () => spreadIds[Math.floor(Math.random() * spreadIds.length)];
    const turns = new Map();
    const ownAuction = (bidder) => {
      const turn = (turns.get(bidder) ?? 0) + 1;
      turns.set(bidder, turn);
      return spreadIds[(bidder * 2 + (turn % 2)) % spreadIds.length];
    };
    const storm = (pick, extra = {}) => stormPhase(api, { tokens, bidderIds, pick, startingPrice: STARTING_PRICE, seconds: SECONDS, ...extra });
    if (wantSpread) listingIds.push(...spreadIds);

    if (RUN.A) {
      listingIds.push(hotId);
      const viewers = VIEWERS > 0 ? startViewers(`ws://127.0.0.1:${PORT}/ws/listings/${hotId}`, VIEWERS) : null;
      const viewersReady = viewers ? await viewers.ready : { available: false, reason: 'BENCH_VIEWERS=0' };
      log(viewersReady.available ? `${viewersReady.open} websocket viewers on the hot auction` : `websocket viewers: not available (${viewersReady.reason})`);
      results.hot = await storm(() => hotId);
      log(summary('A', results.hot));
      const frames = viewers ? await viewers.stop(results.hot.accepted.map((b) => b.id)) : { byBid: new Map() };
      results.delivery = deliveryStats(viewersReady, frames, results.hot.accepted);
      if (results.delivery.available) log(`websocket: ${results.delivery.delivered} of ${results.delivery.expected} frames, p95 ${ms(results.delivery.p95)} ms after the 2xx`);
      await check('A', [results.hot]);
    }
    for (const [letter, key, pick, extra] of [['B', 'spread', anyAuction, {}], ['C', 'own', ownAuction, {}], ['D', 'paced', anyAuction, { paceMs: PACE_MS }]]) {
      if (!RUN[letter]) continue;
      // Where C's time goes: each process's CPU per accepted bid over the storm (ADR 0062).
      const cpu = letter === 'C' ? countCpu(systemCpuGroups(system)) : null;
      results[key] = await storm(pick, extra);
      if (cpu) {
        results.ownCpu = cpu.stop(results[key].accepted.length);
        log(`C CPU per accepted bid: ${results.ownCpu.map((group) => `${group.label} ${Math.round(group.perRequestUs)} µs`).join(', ')}`);
      }
      log(summary(letter, results[key]));
      await check(letter, [results[key]]);
    }
    if (RUN.E) {
      listingIds.push(eId);
      results.e = await proxyStormPhase(api, { bidders: bidders.slice(0, BIDDERS), listingId: eId, startingPrice: STARTING_PRICE, seconds: SECONDS, maxSteps: E_STEPS });
      log(`${summary('E', results.e)}; ${Math.round(results.e.decidedPerSecond)} decided/s`);
      await check('E', [results.e]);
    }
    if (RUN.F) {
      listingIds.push(fId);
      results.f = [];
      for (const count of [VIEWERS, F_VIEWERS]) {
        const viewers = startViewers(`ws://127.0.0.1:${PORT}/ws/listings/${fId}`, count, { batch: F_BATCH, threads: count > 2500 ? F_THREADS : 1 });
        const ready = await viewers.ready;
        if (!ready.available) throw new Error(`phase F: ${count} viewers could not connect (${ready.reason})`);
        log(`F: ${ready.open} websocket viewers on one auction`);
        const fBidders = bidders.slice(0, F_BIDDERS);
        const phase = await stormPhase(api, { tokens: fBidders.map((b) => b.token), bidderIds: fBidders.map((b) => b.id), pick: () => fId, startingPrice: STARTING_PRICE, seconds: SECONDS, paceMs: F_PACE_MS });
        const frames = await viewers.stop(phase.accepted.map((b) => b.id));
        const delivery = deliveryStats(ready, frames, phase.accepted);
        log(`${summary(`F (${count} viewers)`, phase)}; ${delivery.delivered} of ${delivery.expected} frames, p95 ${ms(delivery.p95)} ms`);
        if (delivery.delivered !== delivery.expected || delivery.duplicates || delivery.closedEarly) problems.push(`F: ${delivery.delivered} of ${delivery.expected} frames delivered to ${count} viewers`);
        results.f.push({ viewers: count, phase, delivery });
      }
      await check('F', results.f.map((run) => run.phase));
    }
    if (RUN.G) {
      results.g = [];
      const pair = async (replicas) => {
        const spread = await storm(anyAuction);
        const own = await storm(ownAuction);
        log(`G with ${replicas} replica(s): ${summary('B', spread)}; ${summary('C', own)}`);
        results.g.push({ index: results.g.length, replicas, spread, own });
        return [spread, own];
      };
      const gPhases = await pair(1);
      const second = await system.launchReplica('bidding-service');
      gPhases.push(...(await pair(2)));
      await second.stop();
      gPhases.push(...(await pair(1)));
      await check('G', gPhases);
    }

    // B, C or D alone make no hot auction (only A and E do): their ceiling is then the spread one alone.
    const ceilingHot = hotId ?? eId ?? null;
    const needCeiling = RUN.A || RUN.B || RUN.C || RUN.D || RUN.E;
    const ceiling = needCeiling
      ? await measureCeiling(env.DATABASE_URL, { hotId: ceilingHot, spreadIds: RUN.B || RUN.C || RUN.D ? spreadIds : [], clients: BIDDERS, seconds: CEILING_SECONDS, singleRow: RUN.E })
      : null;
    if (ceiling) {
      log(`ceiling: ${ceiling.hot ? `hot ${Math.round(ceiling.hot.perSecond)} tx/s (p99 ${ms(ceiling.hot.p99)} ms)` : 'no hot auction in this run'}` +
        (ceiling.spread ? `, spread ${Math.round(ceiling.spread.perSecond)} tx/s (p99 ${ms(ceiling.spread.p99)} ms)` : '') +
        (ceiling.singleRow ? `, single row ${Math.round(ceiling.singleRow.perSecond)} tx/s (p99 ${ms(ceiling.singleRow.p99)} ms)` : ''));
    }

    const date = new Date().toISOString().slice(0, 10);
    const sections = [];
    if (RUN.A && RUN.B && RUN.C && RUN.D) {
      const { hot, spread, own, paced, delivery, ownCpu } = results;
      sections.push([HEADINGS.ad, sectionAD(settings, { date, phases: { hot, spread, own, paced }, ceiling, delivery, checks: checksAfter.D, ownCpu })]);
    } else if (RUN.A || RUN.B || RUN.C || RUN.D) log('phases A to D write their section only when all four run');
    if (RUN.E) sections.push([HEADINGS.e, sectionE(settings, { date, phase: results.e, ceiling, checks: checksAfter.E })]);
    if (RUN.F) sections.push([HEADINGS.f, sectionF(settings, { date, runs: results.f, checks: checksAfter.F })]);
    if (RUN.G) sections.push([HEADINGS.g, sectionG(settings, { date, runs: results.g, checks: checksAfter.G })]);
    for (const [, text] of sections) console.log(`\n${text}`);
    if (problems.length) {
      failed = true;
      console.error(`bench:bids FAILED (${problems.join('; ')}); ${DOCS_FILE} left alone`);
    } else if (WRITE_DOCS) {
      for (const [heading, text] of sections) writeSection(DOCS_FILE, heading, text);
      log(`wrote ${sections.length} section(s) of ${DOCS_FILE}`);
    }
  } catch (error) {
    failed = true;
    console.error(`bench:bids failed: ${error.stack ?? error}`);
  } finally {
    api.close();
    await pool.end().catch(() => {});
    await system.stop();
    await dropIsolated(env);
  }
}

if (PHASES) await bidPhases().catch((error) => {
  failed = true;
  console.error(`bench:bids failed: ${error.message}`);
});

// Phase S on two systems of its own (bid-signatures.mjs), after the phases' system has stopped: its section is written
// only when no storm answered a 5xx or left an end state a check refuses.
if (!failed && RUN.S) {
  try {
    const result = await measureBusChecks({ baseEnv: env, port: PORT + 40, rounds: S_ROUNDS, bidders: BIDDERS, listings: LISTINGS, seconds: SECONDS, startingPrice: STARTING_PRICE, log });
    log(`S: median on ${Math.round(result.on.acceptedPerSecond)}, off ${Math.round(result.off.acceptedPerSecond)} accepted bids/s (cost ${(100 * result.cost).toFixed(1)}%); ` +
      `system CPU per accepted bid on ${Math.round(result.on.systemUs)} µs, off ${Math.round(result.off.systemUs)} µs`);
    const text = sectionS(settings, { date: new Date().toISOString().slice(0, 10), result });
    console.log(`\n${text}`);
    if (result.problems.length) {
      failed = true;
      console.error(`bench:bids FAILED (${result.problems.join('; ')}); ${DOCS_FILE} left alone`);
    } else if (WRITE_DOCS) {
      writeSection(DOCS_FILE, HEADINGS.s, text);
      log(`wrote the phase S section of ${DOCS_FILE}`);
    }
  } catch (error) {
    failed = true;
    console.error(`bench:bids phase S failed: ${error.stack ?? error}`);
  }
}

/** The docs section for the observability overhead runs. */
function overheadSection({ date, plain, observed, ratio, roundRatios, everyTrace }) {
  const overhead = 1 - ratio;
  const label = (run) => (run.everyTrace ? 'every trace, scraped each second' : run.observed ? 'observed' : 'plain');
  const row = (run, i) =>
    `| ${i + 1} | ${label(run)} | ${Math.round(run.phase.acceptedPerSecond)} | ${ms(run.phase.p50)} | ${ms(run.phase.p99)} | ${run.phase.serverErrors} | ` +
    `${run.exports ? `${run.exports.requests} exports, ${(run.exports.bytes / 1e6).toFixed(1)} MB` : '-'} | ${run.scrapes ? `${run.scrapes.scrapes} (${run.scrapes.failures} failed)` : '-'} |`;
  const runs = [...plain.runs, ...observed.runs, ...(everyTrace ? [everyTrace.run] : [])].sort((a, b) => a.index - b.index);
  return [
    '## Observability overhead (npm run bench:bids)',
    '',
    `Measured ${date} on ${os.cpus().length} cores${PHASES ? ', in the same run as the bids section' : ''}: phase C (${BIDDERS} bidders, each on two auctions of its own, ` +
      `${SECONDS} s) on fresh systems one after the other, **plain** (no OTEL_EXPORTER_OTLP_ENDPOINT, nobody scraping) and **observed** ` +
      '(as production runs: tracing at its default ratio, one request in ten, every recorded span exported over OTLP/HTTP to a sink, ' +
      `every process scraped every ${productionScrapeMs() / 1000} s as deploy/observability/prometheus.yml configures; sink and scraper in a process of their own beside the load generator, ADR 0048), in ${roundRatios.length} rounds of plain, observed, observed, plain: a system started after another may run slower, and ` +
      `the mirrored order cancels that drift; ${runs.every((run) => run.checkpointed) ? 'each storm starts after a CHECKPOINT, so the checkpoint of the systems before it does not fall inside it' : '**CHECKPOINT was refused before some storms (not a superuser), so those runs may meet the checkpoint of the systems before them**'}. Metric recording is always on, so the difference is tracing, its export and the scrapes ` +
      '(ADR 0048, 0049). A last system records **every trace** (OTEL_TRACES_SAMPLER_ARG=1) and is scraped each second, the harshest setting, for the record.',
    '',
    '| # | run | accepted bids/s | p50 ms | p99 ms | 5xx | OTLP | scrapes |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...runs.map(row),
    '',
    `Means: plain ${Math.round(plain.acceptedPerSecond)}, observed ${Math.round(observed.acceptedPerSecond)} accepted bids/s: ` +
      `${(overhead * 100).toFixed(1)}% fewer with observability on (target < ${TARGETS.overhead * 100}%: **${overhead < TARGETS.overhead ? 'met' : 'missed'}**); ` +
      `round by round: ${roundRatios.map((r) => `${((1 - r) * 100).toFixed(1)}%`).join(', ')}.` +
      (everyTrace ? ` Recording every trace and scraping each second: ${((1 - everyTrace.ratio) * 100).toFixed(1)}% fewer than the plain mean (one run, after the others).` : ''),
    '',
    '',
  ].join('\n');
}

if (!failed && OVERHEAD) {
  try {
    const result = await measureObservabilityOverhead({ everyTrace: process.env.BENCH_OVERHEAD_EVERY_TRACE !== '0', rounds: OVERHEAD_ROUNDS, baseEnv: env, port: PORT + 20, bidders: BIDDERS, listings: LISTINGS, seconds: SECONDS, startingPrice: STARTING_PRICE, log });
    const text = overheadSection({ date: new Date().toISOString().slice(0, 10), ...result });
    console.log(`\n${text}`);
    if (result.plain.serverErrors || result.observed.serverErrors || result.everyTrace?.run.phase.serverErrors) {
      failed = true;
      console.error('bench:bids FAILED (5xx answers in the overhead runs)');
    } else if (WRITE_DOCS) {
      const current = readFileSync(DOCS_FILE, 'utf8');
      const pattern = /## Observability overhead \(npm run bench:bids\)[\s\S]*?(?=\n## (?!#)|$)/;
      writeFileSync(DOCS_FILE, pattern.test(current) ? current.replace(pattern, () => text) : `${current.trimEnd()}\n\n${text}`);
      log(`wrote the observability overhead section of ${DOCS_FILE}`);
    }
  } catch (error) {
    failed = true;
    console.error(`bench:bids overhead runs failed: ${error.stack ?? error}`);
  }
}
process.exit(failed ? 1 : 0);
