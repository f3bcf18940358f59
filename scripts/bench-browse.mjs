// npm run bench:browse: loads 100,000 listings into an isolated system's database and measures GET /api/listings
// through the gateway for typical filter and sort combinations, then EXPLAINs the exact SQL the service runs.
// Results go to docs/benchmarks.md (target: p99 < 50 ms at 20 connections, no sequential scan of listings).
import autocannon from 'autocannon';
import pg from 'pg';
import os from 'node:os';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dropIsolated, isolatedSystemEnv, NODE_FLAGS, ROOT, SERVICES, startSystem } from './lib/system.mjs';
import { buildWorkspace, loadBuilt } from './lib/build.mjs';
import { alertMatchingSection, benchAlertMatching } from './lib/bench-alert-matching.mjs';
import { benchMisspelledSearches, misspelledSearchSection, timeVocabularyRead } from './lib/bench-misspelled-search.mjs';
import { busEnv, busKeys } from './lib/bus-keys.mjs';
import { settleAfterLoad } from './lib/bench-settle.mjs';
import { bulkInsertSql, mixedQuery } from './lib/bench-browse-data.mjs';
import { benchIndexAlone, indexAloneSection } from './lib/bench-browse-index.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 100_000);
const TARGET_P99_MS = 50;
const TARGET_RPS = 500;

// The service's own query builders, from the build (built first, so a fresh clone works).
buildWorkspace();
const { buildBrowseGrid, buildBrowseQuery } = loadBuilt('apps/listings-service/dist/listings/browse-query.js');
const { LISTING_COLUMNS } = loadBuilt('apps/listings-service/dist/listings/listings.repository.js');
const { BrowseListingsQuerySchema } = loadBuilt('libs/contracts/dist/index.js');

/** The combinations a shopper actually uses (SPEC §2 browse, plus the home page's featured strip). */
const COMBOS = [
  ['newest (default)', ''],
  ['category', 'category=SaaS'],
  ['price asc', 'sort_by=price&sort_order=asc'],
  ['price desc, min/max price', 'sort_by=price&sort_order=desc&min_price=10000&max_price=100000'],
  ['revenue desc, min revenue', 'sort_by=monthly_revenue&sort_order=desc&min_revenue=5000'],
  ['auctions only', 'listing_type=auction'],
  ['search', 'search=espresso'],
  ['search + category', 'search=coffee&category=Blog'],
  ['page 50', 'page=50'],
  ['featured (home)', 'featured=true&limit=6'],
];

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** The service's two statements for a browse URL query string (the page and the total), built by the same functions. */
function serviceSql(queryString) {
  const query = BrowseListingsQuerySchema.parse(Object.fromEntries(new URLSearchParams(queryString)));
  return { page: buildBrowseQuery(query, LISTING_COLUMNS), count: buildBrowseGrid(query) };
}

/** The SQL alone at the same concurrency: what the database costs without the gateway and NATS hops. */
async function sqlLoop(pool, { page, count }, seconds) {
  const latencies = [];
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS / 2 }, async () => {
      // Two connections per simulated request: the service runs the page and the total at once.
      const client = await pool.connect();
      const countClient = await pool.connect();
      try {
        await client.query('SET search_path TO listings');
        await countClient.query('SET search_path TO listings');
        while (Date.now() < deadline) {
          const start = process.hrtime.bigint();
          await Promise.all([client.query(page.sql, page.params), countClient.query(count.sql, count.params)]);
          latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
        }
      } finally {
        client.release();
        countClient.release();
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { rps: Math.round(latencies.length / seconds), p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** A plan tree as one line per node: type, index or relation, rows and time. */
function condensePlan(node, depth = 0, lines = []) {
  const target = node['Index Name'] ? ` using ${node['Index Name']}` : node['Relation Name'] ? ` on ${node['Relation Name']}` : '';
  const filter = node['Index Cond'] ?? node['Recheck Cond'] ?? node.Filter;
  lines.push(
    `${'  '.repeat(depth)}${node['Node Type']}${target} (rows ${node['Actual Rows']}, ${node['Actual Total Time'].toFixed(1)} ms${
      node['Shared Read Blocks'] ? `, read ${node['Shared Read Blocks']}` : ''
    })${filter ? ` ${filter.length > 90 ? `${filter.slice(0, 87)}...` : filter}` : ''}`,
  );
  for (const child of node.Plans ?? []) condensePlan(child, depth + 1, lines);
  return lines;
}

const seqScans = (node) => (node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'listings' ? 1 : 0) + (node.Plans ?? []).reduce((n, c) => n + seqScans(c), 0);

const run = (url, requests, overallRate) =>
  new Promise((resolve, reject) => {
    autocannon({ url, duration: SECONDS, connections: CONNECTIONS, ...(requests ? { requests } : {}), ...(overallRate ? { overallRate } : {}) }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });

/** autocannon requests whose path is a fresh varied query each time. */
const mixedRequests = (path) => [{ setupRequest: (request) => ({ ...request, path: `${path}?${mixedQuery()}` }) }];

/** A second gateway on the same services with the browse cache off: what a cache miss costs. */
async function startUncachedGateway(port) {
  // The flags npm start gives a gateway (ADR 0082).
  const child = spawn(process.execPath, [...NODE_FLAGS.gateway, join(ROOT, 'apps/gateway/dist/main.js')], {
    cwd: ROOT,
    // The stack's own gateway key (D25): every service refuses a request signed by any other.
    env: { ...env, ...busEnv(busKeys(join(ROOT, env.DATA_DIR, 'bus-keys.json')), 'gateway'), PORT: String(port), BROWSE_CACHE_MS: '0', METRICS_PORT: '0' },
    stdio: 'ignore',
  });
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`uncached gateway exited with code ${child.exitCode}`);
    if (await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false)) return child;
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error('uncached gateway did not get ready');
}

/** A metric's sample from a /metrics text (the first with that name), or null. */
const sample = (text, name) => {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text);
  return match ? Number(match[1]) : null;
};

/**
 * Stops the stack's listings-service and starts another on the loaded rows; resolves once its browse index holds every
 * active listing: how long that took from the start, and the process's resident memory then.
 */
async function restartListingsService(active) {
  const first = system.children[SERVICES.findIndex(([name]) => name === 'listings-service')];
  await new Promise((done) => {
    first.once('exit', done);
    first.kill('SIGTERM');
  });
  const started = Date.now();
  await system.launchReplica('listings-service');
  // The replica's health port: the first extra one (ADR 0048 offsets, scripts/lib/system.mjs).
  const metrics = `http://127.0.0.1:${Number(env.HEALTH_PORT_BASE) + 7}/metrics`;
  for (;;) {
    const text = await fetch(metrics).then((r) => r.text(), () => '');
    if (sample(text, 'market_browse_index_listings') === active) {
      return { listings: active, loadMs: Date.now() - started, rssBytes: sample(text, 'process_resident_memory_bytes') };
    }
    if (Date.now() - started > 30 * 60_000) throw new Error('the browse index did not load within 30 minutes');
    await new Promise((r) => setTimeout(r, 250));
  }
}

const env = {
  ...isolatedSystemEnv('benchbrowse', 3960),
  LOG_LEVEL: 'warn',
  RATE_LIMIT_SCALE: '0',
  // The vocabulary of misspelled searches is read when listings-service starts again after the load (below), and not
  // again while the bench runs: a read in the middle would be measured as browse (ADR 0080).
  SEARCH_VOCABULARY_MAX_AGE_MS: '3600000',
  // Named here (not found by startSystem) so the second gateway joins the same stack.
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  // This machine's Redis and NATS have no credentials (D25): a benchmark may run on them, said out loud.
  ALLOW_OPEN_INFRA: 'true',
};
const system = await startSystem({ env, quiet: true, log: () => {} });
const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: CONNECTIONS });
let uncached = null;
try {
  uncached = await startUncachedGateway(3970);
  const loadStart = Date.now();
  // One connection, so the seed holds for every statement.
  const loader = await pool.connect();
  await loader.query('SELECT setseed(0.42)');
  // In statements of 20,000 rows: one statement of a million made the listing_counts trigger's 900,000 updates of
  // some 32 rows in one transaction, each walking its row's chain of versions so far (hours, not minutes).
  for (let first = 1; first <= ROWS; first += 20_000) await loader.query(bulkInsertSql(ROWS, first, Math.min(ROWS, first + 19_999)));
  loader.release();
  const settled = await settleAfterLoad(pool);
  console.log(`settled in ${(settled.ms / 1000).toFixed(1)} s (VACUUM (ANALYZE) of the database${settled.waited ? ', then autovacuum finished' : ''})`);
  const stats = (await pool.query(`SELECT count(*)::int AS n, (count(*) FILTER (WHERE status = 'active'))::int AS active,
    (count(*) FILTER (WHERE featured))::int AS featured, pg_size_pretty(pg_total_relation_size('listings.listings')) AS size FROM listings.listings`)).rows[0];
  console.log(`Loaded ${stats.n} listings (${stats.active} active, ${stats.featured} featured, ${stats.size}) in ${((Date.now() - loadStart) / 1000).toFixed(1)} s`);

  // listings-service starts again on the loaded rows, as after a deploy: its browse index loads from PostgreSQL (ADR
  // 0081) and its spelling vocabulary is read. The first one stops; requests go to the new one.
  const index = await restartListingsService(stats.active);
  console.log(`browse index: ${index.listings} listings loaded in ${index.loadMs} ms; listings-service resident ${Math.round(index.rssBytes / 2 ** 20)} MB`);

  const base = `${system.url}/api/listings`;
  const baseUncached = 'http://127.0.0.1:3970/api/listings';
  for (const [, qs] of COMBOS) {
    const response = await fetch(`${baseUncached}?${qs}`);
    if (!response.ok) throw new Error(`GET /api/listings?${qs} -> ${response.status} ${await response.text()}`);
  }

  const errors = (r) => r.errors + r.non2xx + r.timeouts;
  const rows = [];
  const healthz = await run(`${system.url}/healthz`);
  const mixed = await run(`${system.url}/api/listings`, mixedRequests('/api/listings'));
  const mixedCold = await run('http://127.0.0.1:3970/api/listings', mixedRequests('/api/listings'));
  // The same mix offered at the target rate (autocannon paces the 20 connections to 500 requests/s in all): the latency
  // a shopper sees at that load, where the rows above are each as fast as the machine goes.
  const mixedAtTarget = await run('http://127.0.0.1:3970/api/listings', mixedRequests('/api/listings'), TARGET_RPS);
  console.log(`mixed: cached ${Math.round(mixed.requests.average)} req/s p99 ${mixed.latency.p99} ms; uncached ${Math.round(mixedCold.requests.average)} req/s p99 ${mixedCold.latency.p99} ms; at ${TARGET_RPS}/s p99 ${mixedAtTarget.latency.p99} ms`);
  const metricsText = await fetch(`http://127.0.0.1:${Number(env.HEALTH_PORT_BASE) + 7}/metrics`).then((r) => r.text());
  const answeredBy = { index: 0, database: 0 };
  for (const line of metricsText.split('\n')) {
    const match = /^market_browse_answers_total\{(?=[^}]*source="(index|database)")[^}]*\} ([0-9.e+]+)$/.exec(line);
    if (match) answeredBy[match[1]] += Number(match[2]);
  }
  const mixedRow = { title: 'mixed: a varied query each request (searches, ranges, categories, sorts, pages 1-20)', qs: 'varied', result: mixed, cold: mixedCold };
  const mixedAtTargetRow = { title: `mixed, offered at ${TARGET_RPS} requests/s`, qs: 'varied', result: null, cold: mixedAtTarget };
  const gatewayOnly = { title: 'GET /healthz (gateway only, for comparison)', qs: '', result: healthz };
  for (const [title, qs] of COMBOS) {
    const result = await run(`${base}${qs ? `?${qs}` : ''}`);
    const cold = await run(`${baseUncached}${qs ? `?${qs}` : ''}`);
    const statements = serviceSql(qs);
    const direct = await sqlLoop(pool, statements, 3);
    const client = await pool.connect();
    let plan;
    let countPlan;
    try {
      await client.query('SET search_path TO listings');
      const explain = async ({ sql, params }) => (await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params)).rows[0]['QUERY PLAN'][0];
      plan = await explain(statements.page);
      countPlan = await explain(statements.count);
    } finally {
      client.release();
    }
    rows.push({ title, qs, result, cold, direct, plan, countPlan });
    console.log(
      `${title}: cached ${Math.round(result.requests.average)} req/s p99 ${result.latency.p99} ms; uncached ${Math.round(cold.requests.average)} req/s ` +
        `p50 ${cold.latency.p50} p99 ${cold.latency.p99} ms, ${errors(cold)} errors; SQL alone p50 ${direct.p50.toFixed(1)} ms`,
    );
  }

  // Typos of words of live titles, a letter dropped (ADR 0080).
  const misspelled = {
    connections: CONNECTIONS,
    seconds: SECONDS,
    vocabulary: await timeVocabularyRead(pool),
    results: await benchMisspelledSearches({ baseUrl: baseUncached, typos: [['gardning', 'gardening'], ['productivty', 'productivity']], seconds: SECONDS, connections: CONNECTIONS }),
  };
  console.log(`vocabulary: ${misspelled.vocabulary.words} words read in ${Math.round(misspelled.vocabulary.ms)} ms`);
  for (const r of misspelled.results) console.log(`misspelled "${r.typed}" -> "${r.corrected}": ${Math.round(r.load.requests.average)} req/s p99 ${r.load.latency.p99} ms`);

  const alerts = { searches: SEARCHES, ...(await benchAlertMatching({ pool, baseUrl: system.url, admin: system.admin, searches: SEARCHES })) };
  for (const r of alerts.results) console.log(`alert matching: ${r.matches} matched, ${r.events} events, ${r.workMs} ms (approval to committed ${r.endToEndMs} ms)`);

  // Last, so the index this process builds (about a gigabyte at a million listings) is not beside the runs above.
  const indexAlone = await benchIndexAlone(pool);
  console.log(`index alone: mean ${indexAlone.mean.toFixed(3)} ms p99 ${indexAlone.p99.toFixed(2)} max ${indexAlone.max.toFixed(2)} ms`);

  const cells = (r) => (r ? `${Math.round(r.requests.average)} | ${r.latency.p50} | ${r.latency.p90} | ${r.latency.p99} | ${errors(r)}` : '- | - | - | - | -');
  const httpRow = ({ title, qs, result, cold, direct }) =>
    `| ${title} | \`${qs || '-'}\` | ${cells(result)} | ${cells(cold)} | ${direct ? `${direct.p50.toFixed(1)} / ${direct.p99.toFixed(1)}` : '-'} |`;
  const planBlocks = rows.flatMap(({ title, plan, countPlan }) => [
    `**${title}**: page ${plan['Execution Time'].toFixed(1)} ms, total ${countPlan['Execution Time'].toFixed(1)} ms${
      seqScans(plan.Plan) + seqScans(countPlan.Plan) ? ', **SEQ SCAN on listings**' : ''
    }`,
    '```',
    ...condensePlan(plan.Plan),
    '-- total:',
    ...condensePlan(countPlan.Plan),
    '```',
  ]);
  const worstP99 = Math.max(...rows.map((r) => r.result.latency.p99), mixed.latency.p99);
  const worstColdP99 = Math.max(...rows.map((r) => r.cold.latency.p99), mixedCold.latency.p99);
  const withSeqScan = rows.filter((r) => seqScans(r.plan.Plan) + seqScans(r.countPlan.Plan)).map((r) => r.title);
  const section = [
    `## bench:browse (${new Date().toISOString().slice(0, 10)})`,
    '',
    `${stats.n.toLocaleString('en-US')} listings (${stats.active.toLocaleString('en-US')} active, ${stats.featured} featured; table and indexes ${stats.size}), inserted with one`,
    '`INSERT ... SELECT FROM generate_series` statements of 20,000, then `VACUUM (ANALYZE)` and no autovacuum running. autocannon, ' +
      `${CONNECTIONS} connections, ${SECONDS} s per combination, one after the other; ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version};`,
    'every process, PostgreSQL and the load generator on this machine. "cached" is the gateway as configured (browse cache,',
    '`BROWSE_CACHE_MS` 2000: the same 10 URLs are repeated, so nearly every request is a hit); "no cache" is a second gateway',
    'on the same services with `BROWSE_CACHE_MS=0` (every request goes gateway → NATS → listings-service → PostgreSQL, as',
    `cache misses and varied queries do). "SQL alone" runs the service's two statements (page and total, at once) from a pg pool`,
    `of ${CONNECTIONS} for 3 s: PostgreSQL's path, which answers while the browse index loads and for phrase searches; with the`,
    `index (ADR 0081) a miss is the index's count and page plus one read of the page's rows by id. The "mixed" row sends a`,
    `different query on every request, so the cache mostly misses; the row after it offers the same mix at ${TARGET_RPS} requests/s.`,
    '',
    `Browse index (ADR 0081): listings-service started again on the loaded rows and held all ${index.listings.toLocaleString('en-US')} active`,
    `listings ${(index.loadMs / 1000).toFixed(1)} s after its start (its resident memory then: ${Math.round(index.rssBytes / 2 ** 20)} MB). During the runs it`,
    `answered ${answeredBy.index.toLocaleString('en-US')} browse requests and PostgreSQL ${answeredBy.database.toLocaleString('en-US')} (\`market_browse_answers_total\`).`,
    '',
    '| combination | query | cached req/s | p50 | p90 | p99 ms | err | no cache req/s | p50 | p90 | p99 ms | err | SQL alone p50 / p99 ms |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    httpRow(gatewayOnly),
    ...rows.map(httpRow),
    httpRow(mixedRow),
    httpRow(mixedAtTargetRow),
    '',
    `Mixed queries on a miss: ${Math.round(mixedCold.requests.average)} requests/s at most (target ${TARGET_RPS}: **${mixedCold.requests.average >= TARGET_RPS ? 'met' : 'missed'}**), ` +
      `p99 ${mixedCold.latency.p99} ms at that rate and ${mixedAtTarget.latency.p99} ms offered ${TARGET_RPS}/s, answering ${Math.round(mixedAtTarget.requests.average)}/s ` +
      `(target p99 < ${TARGET_P99_MS} ms: **${mixedAtTarget.latency.p99 < TARGET_P99_MS && mixedAtTarget.requests.average >= TARGET_RPS * 0.98 ? 'met' : 'missed'}**).`,
    '',
    `Target p99 < ${TARGET_P99_MS} ms: cached **${worstP99 < TARGET_P99_MS ? 'met' : 'missed'}** (worst p99 ${worstP99} ms); ` +
      `no cache **${worstColdP99 < TARGET_P99_MS ? 'met' : 'missed'}** (worst p99 ${worstColdP99} ms). ` +
      `No sequential scan of listings: **${withSeqScan.length ? `missed (${withSeqScan.join(', ')})` : 'met'}**.`,
    '',
    '### Plans (EXPLAIN (ANALYZE, BUFFERS) of the SQL built by `buildBrowseQuery` and `buildBrowseGrid`, condensed)',
    '',
    ...planBlocks,
    '',
    indexAloneSection(indexAlone),
    misspelledSearchSection(misspelled, TARGET_P99_MS),
    alertMatchingSection(alerts),
  ].join('\n');
  console.log(`\n${section}`);

  const file = join(ROOT, 'docs', 'benchmarks.md');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n\n';
  const pattern = /## bench:browse[\s\S]*?(?=\n## (?!#)|$)/;
  writeFileSync(file, pattern.test(current) ? current.replace(pattern, section) : `${current.trimEnd()}\n\n${section}`);
} finally {
  uncached?.kill('SIGTERM');
  await pool.end().catch(() => {});
  await system.stop();
  await dropIsolated(env);
}
