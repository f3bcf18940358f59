// The ceiling of npm run bench:bids: PostgreSQL's rate for the bidding service's own transaction (lock the auction,
// insert the bid, update the auction, append the outbox row), from pg clients directly, on a scratch copy of the
// tables in a schema of its own (created and dropped here), so the storm's end state stays as the service left it.
import pg from 'pg';
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { clock, minimumNextBid, percentile } from './bid-storm.mjs';
import { loadBuilt } from './build.mjs';

// The auction's columns as AuctionsRepository reads them, from its build (loaded on first use).
const repository = () => loadBuilt('apps/bidding-service/dist/auctions/auctions.repository.js');

// One bid alone, statement for statement, as the service decided a bid before batches (ADR 0055, 0058): a batch of one
// does the same work in its own statements. Kept here, the ceiling's own, since the service has no one-bid path now.
const BID_COLUMNS = 'id, listing_id, bidder_id, kind, amount::float8 AS amount, status, automatic, created_at';
// The bid, the auction's new state and its signed bid.placed outbox row in one statement. Params: bid id, listing id,
// bidder id, amount, bid count, expires_at, event id, payload, request id, traceparent, automatic, time, writer, signature.
const RECORD_BID_SQL = `
  WITH bid AS (
    INSERT INTO bids (id, listing_id, bidder_id, kind, amount, automatic, created_at) VALUES ($1, $2, $3, 'bid', $4, $11, $12::timestamptz) RETURNING ${BID_COLUMNS}
  ), moved AS (
    UPDATE auctions SET current_bid = $4, bid_count = $5, expires_at = $6, price_version = price_version + 1, updated_at = now() WHERE listing_id = $2
  ), event AS (
    INSERT INTO outbox (id, name, payload, request_id, traceparent, sender, signature, occurred_at)
    SELECT $7, 'bid.placed', $8::jsonb, $9, $10, $13, $14, ($8::jsonb->>'created_at')::timestamptz FROM bid
  )
  SELECT * FROM bid`;
// The two highest standing maximums and the caller's own (a maximum counts while its bidder has a standing bid).
const MAXIMUM_COLUMNS = 'm.bidder_id, m.max_amount::float8 AS max_amount, m.set_at, m.proxy, m.bidder_name';
const STANDS = `EXISTS (SELECT 1 FROM bids b WHERE b.listing_id = m.listing_id AND b.bidder_id = m.bidder_id AND b.status = 'pending' AND b.kind = 'bid')`;
const STANDING_SQL = `
  (SELECT ${MAXIMUM_COLUMNS}, true AS ranked FROM auction_maximums m WHERE m.listing_id = $1 AND ${STANDS} ORDER BY m.max_amount DESC, m.set_at ASC LIMIT 2)
  UNION ALL
  (SELECT ${MAXIMUM_COLUMNS}, false AS ranked FROM auction_maximums m WHERE m.listing_id = $1 AND m.bidder_id = $2 AND ${STANDS})`;
// The caller's maximum after the bid. Params: listing id, bidder id, maximum, proxy, bidder name, rose.
const SAVE_MAXIMUM_SQL = `
  INSERT INTO auction_maximums (listing_id, bidder_id, max_amount, proxy, bidder_name, set_at) VALUES ($1, $2, $3, $4, $5, clock_timestamp())
  ON CONFLICT (listing_id, bidder_id) DO UPDATE SET max_amount = EXCLUDED.max_amount, proxy = EXCLUDED.proxy, bidder_name = EXCLUDED.bidder_name,
    set_at = CASE WHEN $6 THEN EXCLUDED.set_at ELSE auction_maximums.set_at END, updated_at = now()`;

/** Copies bidding.auctions (the storm's rows, bids reset), bidding.bids, bidding.auction_maximums and bidding.outbox into `schema`. */
async function createScratch(client, schema, listingIds) {
  await client.query(`CREATE SCHEMA ${schema}`);
  for (const table of ['auctions', 'bids', 'auction_maximums', 'outbox']) {
    await client.query(`CREATE TABLE ${schema}.${table} (LIKE bidding.${table} INCLUDING ALL)`);
  }
  // LIKE leaves foreign keys out, and serial defaults would draw on the service's own sequence: redo both here.
  for (const table of ['bids', 'auction_maximums']) {
    const foreignKeys = await client.query(
      `SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE contype = 'f' AND conrelid = 'bidding.${table}'::regclass`,
    );
    for (const { conname, def } of foreignKeys.rows) {
      await client.query(`ALTER TABLE ${schema}.${table} ADD CONSTRAINT ${conname} ${def.replace(/REFERENCES (bidding\.)?(\w+)/, `REFERENCES ${schema}.$2`)}`);
    }
  }
  const serials = await client.query(
    `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = $1 AND column_default LIKE 'nextval(%'`,
    [schema],
  );
  for (const { table_name: table, column_name: column } of serials.rows) {
    await client.query(`CREATE SEQUENCE ${schema}.${table}_${column}_seq OWNED BY ${schema}.${table}.${column}`);
    await client.query(`ALTER TABLE ${schema}.${table} ALTER COLUMN ${column} SET DEFAULT nextval('${schema}.${table}_${column}_seq')`);
  }
  await client.query(`INSERT INTO ${schema}.auctions SELECT * FROM bidding.auctions WHERE listing_id = ANY($1::uuid[])`, [listingIds]);
  await client.query(`UPDATE ${schema}.auctions SET current_bid = NULL, bid_count = 0, price_version = 0`);
  await client.query(`VACUUM ANALYZE ${schema}.auctions`);
}

// The service signs each bid.placed as it writes it (ADR 0065); the ceiling signs with a key of its own, as dearly.
const ceilingKey = generateKeyPairSync('ed25519').privateKey;

/** One plain bid at the minimum next amount, alone in its transaction, statement for statement (ADR 0055). */
async function placeBid(client, listingId, bidderId) {
  await client.query('START TRANSACTION');
  try {
    const { AUCTION_COLUMNS } = repository();
    const [auction] = (await client.query(`SELECT ${AUCTION_COLUMNS} FROM auctions WHERE listing_id = $1 FOR UPDATE`, [listingId])).rows;
    const standing = (await client.query(STANDING_SQL, [listingId, bidderId])).rows;
    const amount = minimumNextBid(auction.starting_price, auction.current_bid);
    const bidCount = auction.bid_count + 1;
    const leader = standing.find((row) => row.ranked);
    const payload = {
      bid_id: randomUUID(), listing_id: listingId, bidder_id: bidderId, bidder_name: 'ceiling_bidder', amount, current_bid: amount,
      bid_count: bidCount, reserve_met: auction.reserve_price === null || amount >= auction.reserve_price,
      expires_at: auction.expires_at?.toISOString() ?? null, extended: false, price_version: auction.price_version + 1,
      previous_leader_id: leader && leader.bidder_id !== bidderId ? leader.bidder_id : null, automatic: false,
      created_at: new Date().toISOString(),
    };
    const eventId = randomUUID();
    const signature = sign(null, Buffer.from(`market-bus-1 event\nbidding-service\n${eventId}\nbid.placed\n${payload.created_at}\n${JSON.stringify(payload)}`), ceilingKey).toString('base64url');
    await client.query(RECORD_BID_SQL, [payload.bid_id, listingId, bidderId, amount, bidCount, auction.expires_at, eventId, JSON.stringify(payload), randomUUID(), null, false, payload.created_at, 'bidding-service', signature]);
    await client.query(SAVE_MAXIMUM_SQL, [listingId, bidderId, amount, false, 'ceiling_bidder', true]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/**
 * The floor of any decision under one auction's row lock: lock the row and write it back, nothing else. Whatever the
 * service does under the lock (reads, inserts, the outbox) can only take longer, so this is the single-row ceiling.
 */
async function touchRow(client, listingId) {
  await client.query('START TRANSACTION');
  try {
    await client.query('SELECT listing_id FROM auctions WHERE listing_id = $1 FOR UPDATE', [listingId]);
    await client.query('UPDATE auctions SET price_version = price_version + 1 WHERE listing_id = $1', [listingId]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/** `clients` connections running `transaction` (placeBid by default) on `pick()`'s listing for `seconds`: transactions per second and latency. */
async function ceilingPhase(pool, { clients, seconds, pick, transaction = placeBid }) {
  const latencies = [];
  const started = clock();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      const client = await pool.connect();
      const bidderId = randomUUID();
      try {
        while (clock() < deadline) {
          const sentAt = clock();
          await transaction(client, pick(), bidderId);
          latencies.push(clock() - sentAt);
        }
      } finally {
        client.release();
      }
    }),
  );
  const elapsed = (clock() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: latencies.length / elapsed, count: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/**
 * Measures the ceiling on one hot auction and spread over `spreadIds`, each for `seconds` with `clients` connections,
 * and with `singleRow` the bare row lock and write on the hot auction (touchRow); the scratch schema is dropped
 * afterwards. Returns {hot, spread, singleRow} (hot null without hotId, spread null without spreadIds, singleRow null unless asked).
 */
export async function measureCeiling(databaseUrl, { hotId, spreadIds, clients, seconds, singleRow = false }) {
  // Load the service's columns before the clock starts: the first require of its build takes seconds on a busy machine.
  repository();
  const schema = `bench_bids_ceiling_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  // As the services connect (libs/server-kit data-source): their schema on the search path, JIT off.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: clients, options: `-c search_path=${schema} -c jit=off` });
  try {
    await createScratch(admin, schema, hotId ? [hotId, ...spreadIds] : spreadIds);
    const hot = hotId ? await ceilingPhase(pool, { clients, seconds, pick: () => hotId }) : null;
    const spread = spreadIds.length ? await ceilingPhase(pool, { clients, seconds, pick: () => spreadIds[Math.floor(Math.random() * spreadIds.length)] }) : null;
    const single = singleRow ? await ceilingPhase(pool, { clients, seconds, pick: () => hotId, transaction: touchRow }) : null;
    return { hot, spread, singleRow: single };
  } finally {
    await pool.end().catch(() => {});
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    await admin.end();
  }
}
