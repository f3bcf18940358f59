// bench:browse's "index alone": the browse index built in this process from the loaded rows, as listings-service builds
// it, and answerFromIndex timed for the mixed load's queries one after another (no HTTP, NATS or PostgreSQL): what a
// cache miss costs listings-service's event loop before it reads the page's rows (ADR 0081, 0082).
import { loadBuilt } from './build.mjs';
import { mixedQuery } from './bench-browse-data.mjs';

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** A query's shape: which filters it has and its sort (S search, C category, P price, R revenue, T type). */
function shapeOf(q) {
  const filters = `${q.search ? 'S' : ''}${q.category ? 'C' : ''}${q.min_price !== undefined ? 'P' : ''}${q.min_revenue !== undefined ? 'R' : ''}${q.listing_type !== 'all' ? 'T' : ''}`;
  return `${filters || '-'} by ${q.sort_by} ${q.sort_order}`;
}

/** Builds the index from `pool`'s active listings and times `count` mixed queries (twice: the second pass counts). */
export async function benchIndexAlone(pool, count = 5000) {
  const { BrowseIndex } = loadBuilt('apps/listings-service/dist/listings/browse-index/browse-index.js');
  const { answerFromIndex } = loadBuilt('apps/listings-service/dist/listings/browse-index/browse-index.query.js');
  const { INDEX_COLUMNS, toListing } = loadBuilt('apps/listings-service/dist/listings/browse-index/browse-index.feed.js');
  const { parseTsQuery } = loadBuilt('apps/listings-service/dist/listings/browse-index/ts-query.js');
  const { BrowseListingsQuerySchema } = loadBuilt('libs/contracts/dist/index.js');
  const client = await pool.connect();
  const index = new BrowseIndex();
  const queries = [];
  try {
    await client.query('SET search_path TO listings');
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const { rows } = await client.query(`SELECT ${INDEX_COLUMNS} FROM listings WHERE status = 'active' AND id > $1 ORDER BY id LIMIT 20000`, [after]);
      index.add(rows.map(toListing));
      if (rows.length < 20000) break;
      after = rows[rows.length - 1].id;
    }
    index.sortAll();
    const searches = new Map();
    for (let i = 0; i < count; i++) {
      const query = BrowseListingsQuerySchema.parse(Object.fromEntries(new URLSearchParams(mixedQuery())));
      if (query.search && !searches.has(query.search)) {
        const { rows } = await client.query(`SELECT websearch_to_tsquery('english', $1)::text AS q`, [query.search]);
        searches.set(query.search, parseTsQuery(rows[0].q));
      }
      queries.push({ query, search: query.search ? searches.get(query.search) : undefined, shape: shapeOf(query) });
    }
  } finally {
    client.release();
  }
  let times = [];
  for (let pass = 0; pass < 2; pass++) {
    times = queries.map(({ query, search }) => {
      const started = process.hrtime.bigint();
      answerFromIndex(index, query, search);
      return Number(process.hrtime.bigint() - started) / 1e6;
    });
  }
  const byShape = new Map();
  queries.forEach(({ shape }, i) => byShape.set(shape, [...(byShape.get(shape) ?? []), times[i]]));
  const sorted = [...times].sort((a, b) => a - b);
  const sum = times.reduce((a, b) => a + b, 0);
  const worst = [...byShape]
    .map(([shape, ms]) => ({ shape, n: ms.length, mean: ms.reduce((a, b) => a + b, 0) / ms.length, max: Math.max(...ms) }))
    .sort((a, b) => b.max - a.max)
    .slice(0, 5);
  return { listings: index.live, count, mean: sum / count, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1], worst };
}

/** The section of docs/benchmarks.md. */
export function indexAloneSection(r) {
  return [
    '### The index alone (answerFromIndex in the bench process)',
    '',
    `The index built in the bench's own process from the ${r.listings.toLocaleString('en-US')} active listings, as listings-service builds it, then`,
    `${r.count.toLocaleString('en-US')} queries of the mixed load answered one after another, twice (the second pass is measured): the index's`,
    "count and page choice alone, which run on listings-service's event loop before the page's rows are read.",
    '',
    `Per query: mean ${r.mean.toFixed(3)} ms, p50 ${r.p50.toFixed(3)}, p99 ${r.p99.toFixed(2)}, max ${r.max.toFixed(2)} ms. The shapes with the slowest query`,
    '(S search, C category, P price range, R revenue floor, T type):',
    '',
    '| shape | queries | mean ms | max ms |',
    '| --- | ---: | ---: | ---: |',
    ...r.worst.map((w) => `| ${w.shape} | ${w.n} | ${w.mean.toFixed(2)} | ${w.max.toFixed(2)} |`),
    '',
  ].join('\n');
}
