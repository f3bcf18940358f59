// Part of npm run bench:browse: saved-search alert matching (ADR 0074). Loads BENCH_SEARCHES saved searches with a
// spread of filters, approves listings through the admin API, and measures how long listings-service takes to match
// each against every search and write its saved_search.matched events, from the stream's redelivery-safe consumer.
const WORDS = ['fitness', 'travel', 'finance', 'gardening', 'gaming', 'pets', 'recipes', 'crypto', 'espresso', 'chess', 'aquarium', 'music'];
const CATEGORIES = ['Blog', 'E-commerce', 'SaaS', 'Content Site', 'Affiliate Site', 'Membership Site', 'Local Business', 'Newsletter'];
const sqlArray = (values) => `(ARRAY[${values.map((v) => `'${v}'`).join(', ')}])`;

/** Inserts `count` saved searches: most name a category, half a search word, some a type, a price cap or a revenue floor. */
function insertSearchesSql(count) {
  return `
    INSERT INTO listings.saved_searches (id, user_id, name, search, query, category, listing_type, max_price, min_revenue, filters_key, alerts, unsubscribe_token)
    SELECT id, gen_random_uuid(), 'bench ' || i, w, CASE WHEN w IS NULL THEN NULL ELSE websearch_to_tsquery('english', w) END,
           CASE WHEN random() < 0.7 THEN ${sqlArray(CATEGORIES)}[1 + floor(random() * ${CATEGORIES.length})::int] END,
           (ARRAY['all', 'all', 'auction', 'fixed'])[1 + floor(random() * 4)::int],
           CASE WHEN random() < 0.4 THEN (1000 + floor(random() * 500000))::bigint END,
           CASE WHEN random() < 0.2 THEN floor(random() * 20000)::bigint END,
           'bench-' || i, random() < 0.9, 's-' || id || '.' || repeat('A', 86)
    FROM (SELECT i, gen_random_uuid() AS id, CASE WHEN random() < 0.5 THEN ${sqlArray(WORDS)}[1 + floor(random() * ${WORDS.length})::int] END AS w
          FROM generate_series(1, ${count}) AS i) AS s`;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Approves `rounds` active listings again (back to pending, then active: a fresh listing.approved each) and times the
 * matcher: from the consumer's transaction start (processed_events.processed_at) to its last saved_search.matched.
 */
export async function benchAlertMatching({ pool, baseUrl, admin, searches, rounds = 5 }) {
  const loadStart = Date.now();
  await pool.query(insertSearchesSql(searches));
  await pool.query('VACUUM ANALYZE listings.saved_searches');
  const loadedIn = (Date.now() - loadStart) / 1000;
  const login = await (await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: admin.email, password: admin.password }) })).json();
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${login.access_token}` };
  const picks = (await pool.query(`SELECT id FROM listings.listings WHERE status = 'active' ORDER BY random() LIMIT $1`, [rounds])).rows;
  const results = [];
  for (const { id } of picks) {
    for (const status of ['pending', 'active']) {
      const answer = await fetch(`${baseUrl}/api/admin/listings/${id}`, { method: 'PATCH', headers, body: JSON.stringify({ status }) });
      if (!answer.ok) throw new Error(`PATCH ${id} ${status}: ${answer.status} ${await answer.text()}`);
    }
    const approvedAt = Date.now();
    const [{ id: eventId }] = (await pool.query(`SELECT id FROM listings.outbox WHERE name = 'listing.approved' AND payload->>'listing_id' = $1 ORDER BY seq DESC LIMIT 1`, [id])).rows;
    let processed = null;
    while (!processed) {
      processed = (await pool.query(`SELECT processed_at FROM listings.processed_events WHERE event_id = $1 AND consumer = 'listings-service'`, [eventId])).rows[0];
      if (!processed) {
        if (Date.now() - approvedAt > 60_000) throw new Error(`listing.approved ${eventId} was not matched within 60 s`);
        await sleep(5);
      }
    }
    const endToEnd = Date.now() - approvedAt;
    const { rows: [facts] } = await pool.query(
      `SELECT (SELECT count(*)::int FROM listings.saved_search_matches WHERE listing_id = $1::uuid) AS matches,
              count(*)::int AS events, max(occurred_at) AS last_event
       FROM listings.outbox WHERE name = 'saved_search.matched' AND payload->>'listing_id' = $1::text`,
      [id],
    );
    const work = facts.last_event ? new Date(facts.last_event).getTime() - new Date(processed.processed_at).getTime() : null;
    results.push({ matches: facts.matches, events: facts.events, workMs: work, endToEndMs: endToEnd });
  }
  return { loadedIn, results };
}

/** The benchmark's section on alert matching, in markdown. */
export function alertMatchingSection({ searches, loadedIn, results }, targetMs = 1000) {
  const worst = Math.max(...results.map((r) => r.workMs ?? 0));
  return [
    `### Saved-search alert matching (${searches.toLocaleString('en-US')} saved searches)`,
    '',
    `Loaded with one \`INSERT ... SELECT\` in ${loadedIn.toFixed(1)} s: 70% name a category, half a search word, a quarter a type, 40% a price cap,`,
    '20% a revenue floor, 90% with alerts on. Each row approves an active listing again through the admin API; "matching" is the',
    "listings-service consumer's transaction, from its start (`processed_events.processed_at`) to its last `saved_search.matched`",
    '(the one statement that matches against every search, then an event per new match with alerts on, signed and written to the',
    'outbox); "approval to committed" adds the outbox relay, JetStream and the commit, as the bench polled it.',
    '',
    '| listing | searches matched | events written | matching ms | approval to committed ms |',
    '| ---: | ---: | ---: | ---: | ---: |',
    ...results.map((r, i) => `| ${i + 1} | ${r.matches} | ${r.events} | ${r.workMs ?? '-'} | ${r.endToEndMs} |`),
    '',
    `Target: one approved listing matched against ${searches.toLocaleString('en-US')} searches in under ${targetMs} ms: **${worst < targetMs ? 'met' : 'missed'}** (worst ${worst} ms).`,
    '',
  ].join('\n');
}
