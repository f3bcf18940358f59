import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import pg from 'pg';
import { collectedGauge, counter } from '@market/server-kit';
import { BrowseListingsQuerySchema, type BrowseListingsQuery } from '@market/contracts';
import { LISTINGS_CONFIG, type ListingsConfig } from '../../listings.config';
import { BrowseIndex, type IndexChange, type IndexedListing } from './browse-index';
import { answerFromIndex, type IndexAnswer } from './browse-index.query';
import { parseTsQuery, termCount, type ParsedTsQuery } from './ts-query';

// A listing as the index keeps it; lexemes joined by a unit separator, which no lexeme holds, so reading a row is one
// split instead of parsing a text[] (a million rows load several times faster).
// bench:browse builds an index with the same.
export const INDEX_COLUMNS = `id, category, listing_type, featured, revenue_verified, traffic_verified,
  price::float8 AS price, monthly_revenue::float8 AS monthly_revenue,
  (extract(epoch FROM created_at) * 1000000)::bigint::text AS created_us, array_to_string(tsvector_to_array(search), chr(31)) AS lexemes`;
const LOAD_CHUNK = 20_000;
const CHANGES_PER_READ = 10_000;
/** Sequence numbers below the highest at start read for ones still missing (their transactions open then). */
const START_LOOKBACK = 100_000;
/** Behind this long (browse_changes keeps an hour), the index is loaded again instead of caught up. */
const RELOAD_AFTER_MS = 10 * 60_000;
/** Terms a search may have for the index to answer it; more (a repeated word, say) go to PostgreSQL. */
const MAX_TERMS = 8;
/** The index answers only while its last catch-up is this recent; older, browse reads PostgreSQL. */
const STALE_AFTER_MS = 30_000;
const POLL_MS = 1_000;
const QUERY_TEXTS_KEPT = 5_000;
/**
 * How long a browse waits for a catch-up under way: a change committed before the request is then in its answer.
 * A longer one (thousands of changes at once) is not waited for: PostgreSQL answers meanwhile, as fresh.
 */
const CATCH_UP_WAIT_MS = 100;
const CATCH_UP_EVERY_MS = 25;

const answers = counter({ name: 'market_browse_answers_total', help: 'Browse pages by who chose them: the in-memory index or PostgreSQL (ADR 0081)', labelNames: ['source'] });

/** A row as the feed reads it: created_us as text (a bigint) and the lexemes joined. */
export type IndexRow = Omit<IndexedListing, 'created_us' | 'lexemes'> & { created_us: string; lexemes: string };

/** A row as read, as the index takes it. */
export const toListing = (row: IndexRow): IndexedListing => ({
  id: row.id,
  category: row.category,
  listing_type: row.listing_type,
  featured: row.featured,
  revenue_verified: row.revenue_verified,
  traffic_verified: row.traffic_verified,
  price: row.price,
  monthly_revenue: row.monthly_revenue,
  created_us: Number(row.created_us),
  lexemes: row.lexemes === '' ? [] : row.lexemes.split('\x1f'),
});

/**
 * Keeps the browse index (ADR 0081) as PostgreSQL has it: loads every active listing at start, in the background
 * (browse reads PostgreSQL until then), then applies browse_changes as they commit: woken by the trigger's notice on a
 * connection of its own, and every second in case a notice was lost. A browse waits for a catch-up already under way,
 * so a change committed before the request is in its answer.
 */
@Injectable()
export class BrowseIndexFeed implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BrowseIndex');
  private index: BrowseIndex | null = null;
  private high = 0;
  /**
   * Sequence numbers skipped over (inclusive ranges): a transaction still open when a later number committed, or one
   * rolled back. A range goes once every transaction running when it was seen has ended (the horizon: a snapshot's
   * xmax then, passed by a later snapshot's xmin), since its numbers can then never commit.
   */
  private gaps: Array<{ from: number; to: number; horizon: bigint | null }> = [];
  private caughtUpAt = 0;
  private running: Promise<void> | null = null;
  /**
   * Catch-up passes started and ended, and the pass a notice of a commit needs: a browse waits (a while) for that pass
   * to end, so what committed before it arrived is in its answer, and never for the passes after it.
   */
  private passesStarted = 0;
  private passesDone = 0;
  private neededPass = 0;
  private passWaiters: Array<{ pass: number; wake: () => void }> = [];
  private again = false;
  private listener: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly queryTexts = new Map<string, ParsedTsQuery>();
  private readonly enabled: boolean;
  private removeGauges: Array<() => void> = [];

  constructor(
    private readonly dataSource: DataSource,
    @Optional() @Inject(LISTINGS_CONFIG) config: Pick<ListingsConfig, 'BROWSE_INDEX'> | null,
  ) {
    this.enabled = (config?.BROWSE_INDEX ?? 'memory') === 'memory';
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    this.removeGauges = [
      collectedGauge({ name: 'market_browse_index_listings', help: 'Active listings in the browse index; no sample before it has loaded and caught up' }, () =>
        this.index && this.caughtUpAt ? [{ labels: {}, value: this.index.live }] : [],
      ),
      collectedGauge({ name: 'market_browse_index_age_seconds', help: 'Seconds since the browse index last caught up with browse_changes' }, () =>
        this.caughtUpAt ? [{ labels: {}, value: (Date.now() - this.caughtUpAt) / 1000 }] : [],
      ),
    ];
    void this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const remove of this.removeGauges) remove();
    if (this.timer) clearInterval(this.timer);
    await this.listener?.end().catch(() => undefined);
  }

  /** Listings in the index, or null before it has loaded. */
  get size(): number | null {
    return this.index?.live ?? null;
  }

  /**
   * A browse page's ids and counts grid from the index, or null when PostgreSQL must answer: the index has not loaded,
   * has not caught up for a while, or the search needs what it does not hold (a phrase).
   */
  async answer(query: BrowseListingsQuery): Promise<IndexAnswer | null> {
    const answer = await this.fromIndex(query);
    answers.inc({ source: answer ? 'index' : 'database' });
    return answer;
  }

  private async fromIndex(query: BrowseListingsQuery): Promise<IndexAnswer | null> {
    if (!this.index) return null;
    const needed = this.neededPass;
    if (this.passesDone < needed) {
      let timer: NodeJS.Timeout | undefined;
      const late = await new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), CATCH_UP_WAIT_MS);
        this.passWaiters.push({ pass: needed, wake: () => resolve(false) });
      });
      clearTimeout(timer);
      if (late) return null;
    }
    if (Date.now() - this.caughtUpAt > STALE_AFTER_MS) return null;
    let search: ParsedTsQuery | undefined;
    try {
      search = query.search ? await this.tsQuery(query.search) : undefined;
    } catch {
      return null;
    }
    if (search === null || (search && search !== 'empty' && termCount(search) > MAX_TERMS)) return null;
    // Read after the awaits: a failed reload may have let it go meanwhile.
    const index = this.index;
    return index ? answerFromIndex(index, query, search) : null;
  }

  /**
   * Whether any active listing matches a search as typed, whatever the other filters (ADR 0080's check before a
   * correction), or null when the index cannot tell: PostgreSQL's EXISTS for a word nothing has reads every row.
   */
  async matchesAny(text: string): Promise<boolean | null> {
    const answer = await this.fromIndex(BrowseListingsQuerySchema.parse({ search: text, limit: 1 }));
    return answer ? answer.grid.some((cell) => cell.n > 0) : null;
  }

  /** Applies what changed since the last catch-up; one at a time, and once more if asked for meanwhile. */
  catchUp(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      for (;;) {
        const began = Date.now();
        this.again = false;
        this.passesStarted++;
        try {
          await this.applyChanges();
        } finally {
          this.passEnded();
        }
        if (!this.again || this.stopped) break;
        // A storm of commits (bids) is taken in batches, at most one per CATCH_UP_EVERY_MS: each costs a pass over
        // the orders it moves, whatever its size.
        const rest = CATCH_UP_EVERY_MS - (Date.now() - began);
        if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
      }
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** A pass ended (well or not): the browses waiting for it or an earlier one go on. */
  private passEnded(): void {
    this.passesDone = this.passesStarted;
    const waiting = this.passWaiters;
    this.passWaiters = [];
    for (const waiter of waiting) {
      if (waiter.pass <= this.passesDone) waiter.wake();
      else this.passWaiters.push(waiter);
    }
  }

  private async start(): Promise<void> {
    const started = Date.now();
    try {
      await this.listen();
      const index = new BrowseIndex();
      // Changes from here on are applied after the load, and numbers below that were not visible yet: transactions
      // still open at the start, whose rows the load may not have seen.
      const [{ high }] = await this.dataSource.query('SELECT COALESCE(max(seq), 0)::float8 AS high FROM browse_changes');
      const seen: Array<{ seq: string }> = await this.dataSource.query('SELECT seq FROM browse_changes WHERE seq > $1 AND seq <= $2 ORDER BY seq', [
        high - START_LOOKBACK,
        high,
      ]);
      this.high = Math.max(0, high - START_LOOKBACK);
      this.gaps = [];
      this.note(seen.map((row) => Number(row.seq)));
      this.high = high;
      await this.setHorizons();
      let after = '00000000-0000-0000-0000-000000000000';
      for (;;) {
        const rows: IndexRow[] = await this.dataSource.query(
          `SELECT ${INDEX_COLUMNS} FROM listings WHERE status = 'active' AND id > $1 ORDER BY id LIMIT ${LOAD_CHUNK}`,
          [after],
        );
        if (this.stopped) return;
        index.add(rows.map(toListing));
        if (rows.length < LOAD_CHUNK) break;
        after = rows[rows.length - 1].id;
      }
      index.sortAll();
      this.index = index;
      await this.catchUp();
      this.logger.log(`Browse index loaded: ${index.live} active listings, ${index.postings.size} words, in ${Date.now() - started} ms`);
    } catch (error) {
      if (this.stopped) return;
      // Browse keeps reading PostgreSQL; the load is tried again.
      this.logger.warn(`Browse index not loaded (${(error as Error).message}); trying again in 5 s`);
      this.index = null;
      setTimeout(() => void this.start(), 5_000).unref();
      return;
    }
    this.timer = setInterval(() => {
      if (this.index && Date.now() - this.caughtUpAt > RELOAD_AFTER_MS && !this.running) {
        // So far behind that browse_changes may have lost rows (it keeps an hour): load everything again.
        this.logger.warn('Browse index too far behind; loading it again');
        if (this.timer) clearInterval(this.timer);
        this.index = null;
        void this.start();
        return;
      }
      void this.catchUp().catch((error: unknown) => this.logger.warn(`Browse index catch-up failed: ${(error as Error).message}`));
    }, POLL_MS);
    this.timer.unref();
  }

  /** The notices of changes, on a connection of their own; lost, it is opened again (the poll covers the gap). */
  private async listen(): Promise<void> {
    if (this.listener || this.stopped) return;
    const { url } = this.dataSource.options as { url: string };
    const client = new pg.Client({ connectionString: url, application_name: 'listings-browse-index', connectionTimeoutMillis: 5_000 });
    const reopen = () => {
      if (this.listener !== client) return;
      this.listener = null;
      if (!this.stopped) this.logger.warn('Browse index lost its notice connection; opening it again (the poll goes on meanwhile)');
      client.end().catch(() => undefined);
      if (!this.stopped) setTimeout(() => void this.listen().catch(() => undefined), 1_000).unref();
    };
    client.on('error', reopen);
    client.on('end', reopen);
    client.on('notification', () => {
      // The next pass to start sees this commit: one under way may have read before it.
      this.neededPass = this.passesStarted + 1;
      void this.catchUp().catch((error: unknown) => this.logger.warn(`Browse index catch-up failed: ${(error as Error).message}`));
    });
    this.listener = client;
    try {
      await client.connect();
      await client.query('LISTEN listings_browse');
    } catch (error) {
      reopen();
      throw error;
    }
  }

  private async applyChanges(): Promise<void> {
    const index = this.index;
    if (!index) return;
    // Ranges whose transactions have all ended are closed for good; that is known before reading, so a number that
    // committed meanwhile is read below.
    // (No gaps, no snapshot to read: the common pass is the one read of new numbers.)
    const xmin = this.gaps.length > 0 ? BigInt((await this.dataSource.query('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin'))[0].xmin) : 0n;
    const settled = this.gaps.filter((gap) => gap.horizon !== null && xmin >= gap.horizon);
    const rows: Array<{ seq: string; listing_id: string }> = [
      ...(this.gaps.length > 0
        ? await this.dataSource.query(
            'SELECT b.seq, b.listing_id FROM unnest($1::bigint[], $2::bigint[]) AS g(lo, hi) JOIN browse_changes b ON b.seq BETWEEN g.lo AND g.hi',
            [this.gaps.map((gap) => gap.from), this.gaps.map((gap) => gap.to)],
          )
        : []),
      ...(await this.dataSource.query(`SELECT seq, listing_id FROM browse_changes WHERE seq > $1 ORDER BY seq LIMIT ${CHANGES_PER_READ}`, [this.high])),
    ];
    const fresh = rows.filter((row) => Number(row.seq) > this.high).length;
    this.gaps = this.gaps.filter((gap) => !settled.includes(gap));
    const opened = this.note(rows.map((row) => Number(row.seq)));
    if (opened) await this.setHorizons();
    const ids = new Set(rows.map((row) => row.listing_id));
    if (ids.size > 0) {
      const current: IndexRow[] = await this.dataSource.query(
        `SELECT ${INDEX_COLUMNS} FROM listings WHERE id = ANY($1::uuid[]) AND status = 'active'`,
        [[...ids]],
      );
      const byId = new Map(current.map((row) => [row.id, toListing(row)]));
      index.apply([...ids].map((id): IndexChange => ({ id, row: byId.get(id) ?? null })));
    }
    // Caught up only once a read came back short: a full one leaves more behind it.
    if (fresh >= CHANGES_PER_READ) this.again = true;
    else this.caughtUpAt = Date.now();
  }

  /**
   * Takes sequence numbers read: those inside a gap close it there, those above the highest raise it, and the numbers
   * skipped on the way open a gap. Returns whether one opened.
   */
  private note(seqs: number[]): boolean {
    let opened = false;
    for (const seq of [...seqs].sort((a, b) => a - b)) {
      if (seq > this.high) {
        if (seq > this.high + 1) {
          this.gaps.push({ from: this.high + 1, to: seq - 1, horizon: null });
          opened = true;
        }
        this.high = seq;
        continue;
      }
      const at = this.gaps.findIndex((gap) => gap.from <= seq && seq <= gap.to);
      if (at < 0) continue;
      const gap = this.gaps[at];
      const parts = [
        ...(gap.from < seq ? [{ from: gap.from, to: seq - 1, horizon: gap.horizon }] : []),
        ...(seq < gap.to ? [{ from: seq + 1, to: gap.to, horizon: gap.horizon }] : []),
      ];
      this.gaps.splice(at, 1, ...parts);
    }
    return opened;
  }

  /** New gaps' horizon: every transaction that could hold one of their numbers has an id below this snapshot's xmax. */
  private async setHorizons(): Promise<void> {
    const [{ xmax }] = await this.dataSource.query('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xmax');
    for (const gap of this.gaps) gap.horizon ??= BigInt(xmax);
  }

  /** The request's search as PostgreSQL reads it (websearch_to_tsquery, kept per text: it never changes). */
  private async tsQuery(text: string): Promise<ParsedTsQuery> {
    const kept = this.queryTexts.get(text);
    if (kept !== undefined) return kept;
    const [{ query }] = await this.dataSource.query(`SELECT websearch_to_tsquery('english', $1)::text AS query`, [text]);
    const parsed = parseTsQuery(query);
    if (this.queryTexts.size >= QUERY_TEXTS_KEPT) this.queryTexts.delete(this.queryTexts.keys().next().value as string);
    this.queryTexts.set(text, parsed);
    return parsed;
  }
}
