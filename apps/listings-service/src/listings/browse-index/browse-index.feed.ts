import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import pg from 'pg';
import { collectedGauge, counter } from '@market/server-kit';
import { BrowseListingsQuerySchema, type BrowseListingsQuery } from '@market/contracts';
import { LISTINGS_CONFIG, type ListingsConfig } from '../../listings.config';
import { BrowseIndex, type IndexChange, type IndexedListing } from './browse-index';
import { answerFromIndex, type IndexAnswer } from './browse-index.query';
import { parseTsQuery, type ParsedTsQuery } from './ts-query';

// A listing as the index keeps it; lexemes joined by a unit separator, which no lexeme holds, so reading a row is one
// split instead of parsing a text[] (a million rows load several times faster).
const INDEX_COLUMNS = `id, category, listing_type, featured, price::float8 AS price, monthly_revenue::float8 AS monthly_revenue,
  (extract(epoch FROM created_at) * 1000000)::bigint::text AS created_us, array_to_string(tsvector_to_array(search), chr(31)) AS lexemes`;
const LOAD_CHUNK = 20_000;
const CHANGES_PER_READ = 10_000;
/** A sequence number not yet seen is a transaction still open, or one rolled back; after this long, the latter. */
const GAP_WAIT_MS = 60_000;
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
type IndexRow = Omit<IndexedListing, 'created_us' | 'lexemes'> & { created_us: string; lexemes: string };

const toListing = (row: IndexRow): IndexedListing => ({
  id: row.id,
  category: row.category,
  listing_type: row.listing_type,
  featured: row.featured,
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
  /** Sequence numbers skipped over, with when they were first missed. */
  private readonly missing = new Map<number, number>();
  private caughtUpAt = 0;
  private running: Promise<void> | null = null;
  /** The catch-up a notice of a commit started, while it runs: a browse waits for it (the poll's it does not). */
  private noticed: Promise<void> | null = null;
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
    const running = this.noticed;
    if (running) {
      let timer: NodeJS.Timeout | undefined;
      const late = await Promise.race([
        running.then(() => false),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), CATCH_UP_WAIT_MS))),
      ]);
      clearTimeout(timer);
      if (late) return null;
    }
    if (Date.now() - this.caughtUpAt > STALE_AFTER_MS) return null;
    const search = query.search ? await this.tsQuery(query.search) : undefined;
    if (search === null) return null;
    return answerFromIndex(this.index, query, search);
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
        await this.applyChanges();
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

  private async start(): Promise<void> {
    const started = Date.now();
    try {
      await this.listen();
      const index = new BrowseIndex();
      // Changes from here on are applied after the load; a few before it too, for transactions that were still open.
      const [{ high }] = await this.dataSource.query('SELECT COALESCE(max(seq), 0)::float8 AS high FROM browse_changes');
      this.high = Math.max(0, high - 1000);
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
    this.timer = setInterval(() => void this.catchUp().catch((error: unknown) => this.logger.warn(`Browse index catch-up failed: ${(error as Error).message}`)), POLL_MS);
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
      client.end().catch(() => undefined);
      if (!this.stopped) setTimeout(() => void this.listen().catch(() => undefined), 1_000).unref();
    };
    client.on('error', reopen);
    client.on('end', reopen);
    client.on('notification', () => {
      const noticed = this.catchUp().catch((error: unknown) => this.logger.warn(`Browse index catch-up failed: ${(error as Error).message}`));
      this.noticed = noticed;
      void noticed.finally(() => {
        if (this.noticed === noticed) this.noticed = null;
      });
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
    // Two reads, each a range or lookups of the primary key (an OR of both would scan the table).
    const rows: Array<{ seq: string; listing_id: string }> = [
      ...(this.missing.size > 0
        ? await this.dataSource.query('SELECT seq, listing_id FROM browse_changes WHERE seq = ANY($1::bigint[])', [[...this.missing.keys()]])
        : []),
      ...(await this.dataSource.query(`SELECT seq, listing_id FROM browse_changes WHERE seq > $1 ORDER BY seq LIMIT ${CHANGES_PER_READ}`, [this.high])),
    ];
    const now = Date.now();
    const ids = new Set<string>();
    let found = 0;
    for (const row of rows) {
      const seq = Number(row.seq);
      ids.add(row.listing_id);
      if (this.missing.delete(seq)) {
        found++;
        continue;
      }
      // A wide jump is rows the retention sweep removed, not transactions in flight.
      if (seq - this.high <= CHANGES_PER_READ) for (let gap = this.high + 1; gap < seq; gap++) this.missing.set(gap, now);
      this.high = Math.max(this.high, seq);
    }
    for (const [seq, since] of this.missing) if (now - since > GAP_WAIT_MS) this.missing.delete(seq);
    if (ids.size > 0) {
      const current: IndexRow[] = await this.dataSource.query(
        `SELECT ${INDEX_COLUMNS} FROM listings WHERE id = ANY($1::uuid[]) AND status = 'active'`,
        [[...ids]],
      );
      const byId = new Map(current.map((row) => [row.id, toListing(row)]));
      const changes: IndexChange[] = [...ids].map((id) => ({ id, row: byId.get(id) ?? null }));
      index.apply(changes);
    }
    if (rows.length - found >= CHANGES_PER_READ) this.again = true;
    this.caughtUpAt = Date.now();
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
