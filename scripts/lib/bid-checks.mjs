// The end state of a bid storm, read straight from PostgreSQL (npm run bench:bids): nothing a bidder was told is
// lost, nothing stored was untold (automatic bids, placed by the system for a maximum holder, are each matched to the
// rule's decision of a 2xx answer, ADR 0055), each auction's totals match its bids, every price follows D6 and the
// proxy rule, and the listings service catches up through events.
import { replayAuction } from './bid-replay.mjs';

/** Items grouped by key (Map.groupBy is Node 21+). */
function groupBy(items, key) {
  const groups = new Map();
  for (const item of items) {
    const k = key(item);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(item);
  }
  return groups;
}

/**
 * Checks the bidding and listings schemas after a storm. `accepted` is every 2xx answer so far (acceptedBid in
 * bid-storm.mjs: id, listingId, bidderId, amount as stored, typed, maxAmount, currentBid, bidCount, raisedOnly);
 * `listingIds` every auction the storms used. Returns [{name, ok, detail}].
 */
export async function checkEndState(pool, { accepted, listingIds, eventsTimeoutMs = 30_000 }) {
  const checks = [];
  const add = (name, ok, detail) => checks.push({ name, ok, detail });
  // A leader's raise of their maximum that recorded nothing answers with a bid already answered: count ids once.
  const answered = [...new Map(accepted.map((bid) => [bid.id, bid])).values()];

  const stored = await pool.query(
    `SELECT count(b.id)::int AS found, count(*) FILTER (WHERE b.amount = t.amount AND b.listing_id = t.listing_id)::int AS same
       FROM unnest($1::uuid[], $2::uuid[], $3::bigint[]) AS t(id, listing_id, amount) LEFT JOIN bidding.bids b ON b.id = t.id`,
    [answered.map((b) => b.id), answered.map((b) => b.listingId), answered.map((b) => b.amount)],
  );
  const { found, same } = stored.rows[0];
  add('every 2xx bid id is stored, with its listing and amount', found === answered.length && same === answered.length,
    `${found} of ${answered.length} found, ${same} with the same listing and amount`);

  const rows = (
    await pool.query(
      `SELECT id, listing_id, bidder_id, amount::float8 AS amount, automatic FROM bidding.bids WHERE listing_id = ANY($1::uuid[])
        ORDER BY listing_id, created_at, id`,
      [listingIds],
    )
  ).rows;
  const answeredIds = new Set(answered.map((bid) => bid.id));
  const typedUntold = rows.filter((row) => !row.automatic && !answeredIds.has(row.id)).length;
  const automaticRows = rows.filter((row) => row.automatic);
  const automaticAnswered = automaticRows.filter((row) => answeredIds.has(row.id)).length;

  // Each auction's 2xx answers replayed in lock order through the rule: every stored bid, typed or automatic, must be one it records.
  const auctions = (
    await pool.query(
      `SELECT listing_id, seller_id, listing_type, auction_type, starting_price::float8 AS starting_price, reserve_price::float8 AS reserve_price,
              current_bid::float8 AS current_bid, bid_count, expires_at FROM bidding.auctions WHERE listing_id = ANY($1::uuid[])`,
      [listingIds],
    )
  ).rows;
  const rowsOf = groupBy(rows, (row) => row.listing_id);
  const stepsOf = groupBy(accepted, (bid) => bid.listingId);
  const problems = [];
  let matchedAutomatic = 0;
  let matchedTyped = 0;
  let referenceChecked = 0;
  for (const auction of auctions) {
    const result = replayAuction(auction, rowsOf.get(auction.listing_id) ?? [], stepsOf.get(auction.listing_id) ?? []);
    matchedAutomatic += result.automatic;
    matchedTyped += result.typed;
    if (result.reference) referenceChecked += 1;
    if (result.problem) problems.push(`${auction.listing_id}: ${result.problem}`);
  }
  add('no stored bid without a 2xx answer (automatic ones: each the rule places for a 2xx answer)',
    typedUntold === 0 && matchedAutomatic === automaticRows.length && problems.length === 0,
    `${rows.length} stored on the storm's auctions: ${rows.length - automaticRows.length} typed (${typedUntold} without a 2xx), ` +
      `${automaticRows.length} automatic (${automaticAnswered} named by their bidder's own 2xx, ${matchedAutomatic} matched to the rule's decision of a 2xx answer)`);

  const totals = await pool.query(
    `SELECT count(*)::int AS n FROM bidding.auctions a
       LEFT JOIN (SELECT listing_id, max(amount) AS top, count(*)::int AS n FROM bidding.bids GROUP BY listing_id) b USING (listing_id)
      WHERE a.listing_id = ANY($1::uuid[]) AND (a.current_bid IS DISTINCT FROM b.top OR a.bid_count <> coalesce(b.n, 0))`,
    [listingIds],
  );
  add('each auction: current_bid = highest stored amount, bid_count = stored bids', totals.rows[0].n === 0,
    `${totals.rows[0].n} of ${listingIds.length} auctions differ`);

  add('each stored bid is the one D6 and the proxy rule record for the 2xx answers in lock order; final price and leader as the reference model',
    problems.length === 0,
    problems.length === 0
      ? `${accepted.length} answers on ${auctions.length} auctions replayed: ${matchedTyped} typed and ${matchedAutomatic} automatic bids as recorded, ${referenceChecked} reference replays agree`
      : `${problems.length} of ${auctions.length} auctions differ; first: ${problems[0]}`);

  // listings.listings learns current_bid and bid_count from bid.placed events: poll until it agrees.
  const started = Date.now();
  let differing = -1;
  while (differing !== 0 && Date.now() - started < eventsTimeoutMs) {
    if (differing > 0) await new Promise((r) => setTimeout(r, 250));
    differing = (
      await pool.query(
        `SELECT count(*)::int AS n FROM bidding.auctions a JOIN listings.listings l ON l.id = a.listing_id
          WHERE a.listing_id = ANY($1::uuid[]) AND (l.current_bid IS DISTINCT FROM a.current_bid OR l.bid_count <> a.bid_count)`,
        [listingIds],
      )
    ).rows[0].n;
  }
  const waited = ((Date.now() - started) / 1000).toFixed(1);
  add('listings.listings current_bid and bid_count equal bidding\'s (events)', differing === 0,
    differing === 0 ? `equal after ${waited} s` : `${differing} listings still differ after ${waited} s`);
  return checks;
}
