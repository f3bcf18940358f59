// The end state of a bid storm, read straight from PostgreSQL (npm run bench:bids): nothing a bidder was told is
// lost, nothing stored was untold, each auction's totals match its bids, bids only go up, and the listings service
// catches up through events.
import { minimumNextBid } from './bid-storm.mjs';

/**
 * Checks the bidding and listings schemas after a storm. `accepted` is every 2xx bid ({id, listingId, amount});
 * `listingIds` every auction the storm used. Returns [{name, ok, detail}].
 */
export async function checkEndState(pool, { accepted, listingIds, startingPrice, eventsTimeoutMs = 30_000 }) {
  const checks = [];
  const add = (name, ok, detail) => checks.push({ name, ok, detail });

  const stored = await pool.query(
    `SELECT count(b.id)::int AS found, count(*) FILTER (WHERE b.amount = t.amount AND b.listing_id = t.listing_id)::int AS same
       FROM unnest($1::uuid[], $2::uuid[], $3::bigint[]) AS t(id, listing_id, amount) LEFT JOIN bidding.bids b ON b.id = t.id`,
    [accepted.map((b) => b.id), accepted.map((b) => b.listingId), accepted.map((b) => b.amount)],
  );
  const { found, same } = stored.rows[0];
  add('every 2xx bid id is stored, with its listing and amount', found === accepted.length && same === accepted.length,
    `${found} of ${accepted.length} found, ${same} with the same listing and amount`);

  const total = (await pool.query('SELECT count(*)::int AS n FROM bidding.bids WHERE listing_id = ANY($1::uuid[])', [listingIds])).rows[0].n;
  add('no stored bid without a 2xx answer', total === accepted.length, `${total} stored on the storm's auctions, ${accepted.length} answered 2xx`);

  const totals = await pool.query(
    `SELECT count(*)::int AS n FROM bidding.auctions a
       LEFT JOIN (SELECT listing_id, max(amount) AS top, count(*)::int AS n FROM bidding.bids GROUP BY listing_id) b USING (listing_id)
      WHERE a.listing_id = ANY($1::uuid[]) AND (a.current_bid IS DISTINCT FROM b.top OR a.bid_count <> coalesce(b.n, 0))`,
    [listingIds],
  );
  add('each auction: current_bid = highest stored amount, bid_count = stored bids', totals.rows[0].n === 0,
    `${totals.rows[0].n} of ${listingIds.length} auctions differ`);

  // In created_at order (id breaks exact ties), each bid must be above the one before, and exactly the D6 minimum
  // over it: bidders only ever bid a minimum they learned, which can be stale (too low, refused) but never too high.
  const bids = await pool.query(
    `SELECT listing_id, amount::float8 AS amount, created_at FROM bidding.bids WHERE listing_id = ANY($1::uuid[])
      ORDER BY listing_id, created_at, id`,
    [listingIds],
  );
  let notIncreasing = 0;
  let notMinimum = 0;
  let ties = 0;
  let previous = null;
  for (const bid of bids.rows) {
    const prior = previous?.listing_id === bid.listing_id ? previous : null;
    if (prior && bid.amount <= prior.amount) notIncreasing += 1;
    if (prior && bid.created_at.getTime() === prior.created_at.getTime()) ties += 1;
    if (bid.amount !== minimumNextBid(startingPrice, prior ? prior.amount : null)) notMinimum += 1;
    previous = bid;
  }
  add('stored amounts strictly increase with created_at', notIncreasing === 0,
    `${notIncreasing} of ${bids.rows.length} bids not above the one before${ties ? ` (${ties} share a created_at with the one before)` : ''}`);
  add('each stored bid is exactly the D6 minimum over the one before', notMinimum === 0, `${notMinimum} of ${bids.rows.length} are not`);

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
