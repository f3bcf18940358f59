/**
 * Lets PostgreSQL finish with the bulk load before anything is measured: VACUUM (ANALYZE) of the whole (throwaway)
 * database, then a wait until no autovacuum worker runs in it.
 */
export async function settleAfterLoad(pool, timeoutMs = 10 * 60_000) {
  // A production table is not read the second after a million rows were inserted into it. Right after the load,
  // autovacuum and analyze of listings and browse_changes (the trigger wrote a row per listing) and the first reads'
  // hint-bit writes ran beside the benchmark: PostgreSQL's own statements were 50% slower in the first rows (7.5
  // against 4.8 ms for the newest page), which measured the load's aftermath, not browse (ADR 0082). The database is
  // the benchmark's own, so all of it is vacuumed: the visibility map and hint bits are set, statistics are fresh.
  const started = Date.now();
  await pool.query('VACUUM (ANALYZE)');
  let waited = false;
  for (;;) {
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'autovacuum worker'`,
    );
    if (rows[0].n === 0 || Date.now() - started > timeoutMs) break;
    waited = true;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return { ms: Date.now() - started, waited };
}
