// bench:browse's misspelled searches (ADR 0080): what a search that matches nothing as typed costs when it is answered
// for its correction, through a gateway without the browse cache (every request reaches listings-service).
import autocannon from 'autocannon';

const measure = (url, seconds, connections) =>
  new Promise((resolve, reject) => {
    autocannon({ url, duration: seconds, connections }, (error, result) => (error ? reject(error) : resolve(result)));
  });

/** What the vocabulary's read costs: the service's own statement over the live titles (ADR 0080, 0081), timed on the pool. */
export async function timeVocabularyRead(pool) {
  const client = await pool.connect();
  try {
    await client.query('SET search_path TO listings');
    const started = performance.now();
    const { rows } = await client.query(
      `SELECT word, count(*)::int AS listings FROM listings, unnest(tsvector_to_array(to_tsvector('simple', title))) AS word
       WHERE status = 'active' AND length(word) >= 3 AND word ~ '[[:alpha:]]' GROUP BY word ORDER BY listings DESC, word LIMIT 50000`,
    );
    return { ms: performance.now() - started, words: rows.length };
  } finally {
    client.release();
  }
}

/**
 * Each typo under load, once the service's vocabulary has the loaded titles (it is read in the background: polled for);
 * every answer checked first to be the correction's, with listings. `typos` maps what is typed to what it must become.
 */
export async function benchMisspelledSearches({ baseUrl, typos, seconds, connections }) {
  const results = [];
  for (const [typed, expected] of typos) {
    const url = `${baseUrl}?search=${encodeURIComponent(typed)}`;
    let body = null;
    for (let tries = 0; tries < 120 && body?.corrected_search !== expected; tries += 1) {
      if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 500));
      const first = await fetch(url);
      body = await first.json();
      if (!first.ok) throw new Error(`"${typed}" answered ${first.status} ${JSON.stringify(body)}`);
    }
    if (body.corrected_search !== expected || body.total === 0) {
      throw new Error(`"${typed}" answered ${JSON.stringify({ corrected_search: body.corrected_search, total: body.total })}, not "${expected}" with listings`);
    }
    const load = await measure(url, seconds, connections);
    results.push({ typed, corrected: body.corrected_search, total: body.total, load });
  }
  return results;
}

/** The benchmark's section on misspelled searches, in markdown. */
export function misspelledSearchSection({ results, connections, seconds, vocabulary }, targetP99Ms) {
  const worst = Math.max(...results.map((r) => r.load.latency.p99));
  const errors = (r) => r.load.errors + r.load.non2xx + r.load.timeouts;
  return [
    '### Misspelled searches (ADR 0080)',
    '',
    'A search that matches no live listing as typed, answered for its correction, through the gateway without the browse cache:',
    "the page and counts as typed, the check that no active listing matches the text, the correction against the titles'",
    `vocabulary in memory, and the page and counts again. autocannon, ${connections} connections, ${seconds} s each. The vocabulary`,
    `itself (${vocabulary.words.toLocaleString('en-US')} words) is read in the background at start and every \`SEARCH_VOCABULARY_MAX_AGE_MS\`:`,
    `${Math.round(vocabulary.ms).toLocaleString('en-US')} ms for the live titles on a connection of the bench's own, right after the load phases; no`,
    'search waits for it. Each typo here becomes a broad search (one title in twenty uses the word): most of a row\'s time is',
    "that search's page and counts, which the plain searches above (rare words) do not show.",
    '',
    '| typed | answered for | listings | req/s | p50 | p99 ms | err |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
    ...results.map(
      (r) => `| \`${r.typed}\` | \`${r.corrected}\` | ${r.total.toLocaleString('en-US')} | ${Math.round(r.load.requests.average)} | ${r.load.latency.p50} | ${r.load.latency.p99} | ${errors(r)} |`,
    ),
    '',
    `Target p99 < ${targetP99Ms} ms (browse's): **${worst < targetP99Ms ? 'met' : 'missed'}** (worst p99 ${worst} ms).`,
    '',
  ].join('\n');
}
