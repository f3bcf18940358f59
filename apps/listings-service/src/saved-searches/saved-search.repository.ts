import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { SavedSearchFilters } from '@market/contracts';

/** A saved search as stored: its filters as columns. */
export interface SavedSearchRow {
  id: string;
  user_id: string;
  name: string;
  search: string | null;
  category: string | null;
  listing_type: 'all' | 'auction' | 'fixed';
  min_price: string | null;
  max_price: string | null;
  min_revenue: string | null;
  max_revenue: string | null;
  alerts: boolean;
  created_at: Date;
  matches: number;
}

/** One new match of an approved listing and a search with alerts on, with what its email needs. */
export interface NewMatch {
  search_id: string;
  user_id: string;
  search_name: string;
  unsubscribe_token: string;
  listing_id: string;
  listing_title: string;
  listing_type: 'auction' | 'fixed';
  category: string;
  price: string;
  matched_at: Date;
}

/** How long a search's matches are kept and counted (ADR 0074). */
export const MATCHES_KEPT_MS = 30 * 24 * 3600 * 1000;

const COLUMNS = `s.id, s.user_id, s.name, s.search, s.category, s.listing_type, s.min_price, s.max_price, s.min_revenue, s.max_revenue,
  s.alerts, s.created_at, (SELECT count(*)::int FROM saved_search_matches m WHERE m.search_id = s.id AND m.matched_at > now() - interval '30 days') AS matches`;

/** The filters in one canonical text: the same filters saved twice by one user are one search. */
export function filtersKey(filters: SavedSearchFilters): string {
  const { search, category, listing_type, min_price, max_price, min_revenue, max_revenue } = filters;
  return JSON.stringify([search?.toLowerCase().replace(/\s+/g, ' ') ?? null, category ?? null, listing_type, min_price ?? null, max_price ?? null, min_revenue ?? null, max_revenue ?? null]);
}

/** The only place that reads and writes saved_searches and saved_search_matches. */
@Injectable()
export class SavedSearchRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A user's searches, newest first. */
  list(userId: string): Promise<SavedSearchRow[]> {
    return this.dataSource.query(`SELECT ${COLUMNS} FROM saved_searches s WHERE s.user_id = $1 ORDER BY s.created_at DESC, s.id`, [userId]);
  }

  /** One of a user's searches; null when it is not theirs or not there. */
  async find(userId: string, id: string): Promise<SavedSearchRow | null> {
    const rows: SavedSearchRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM saved_searches s WHERE s.id = $1 AND s.user_id = $2`, [id, userId]);
    return rows[0] ?? null;
  }

  /**
   * Saves a search unless the user has `max` already ('full') or the same filters ('duplicate', with its name). The
   * user's searches are counted under a lock of their own, so two saves at once cannot pass the limit together.
   */
  create(
    userId: string,
    input: { name: string; filters: SavedSearchFilters; alerts: boolean },
    max: number,
    unsubscribeToken: (id: string) => string,
  ): Promise<SavedSearchRow | 'full' | 'no_words' | { duplicate: string }> {
    return this.dataSource.transaction(async (manager) => {
      // Text of only common words ("the") parses to nothing, which matches nothing: refused rather than kept silent.
      if (input.filters.search) {
        const [{ words }]: Array<{ words: number }> = await manager.query(`SELECT numnode(websearch_to_tsquery('english', $1)) AS words`, [input.filters.search]);
        if (words === 0) return 'no_words';
      }
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('saved-searches'), hashtext($1))`, [userId]);
      const key = filtersKey(input.filters);
      const same: Array<{ name: string }> = await manager.query('SELECT name FROM saved_searches WHERE user_id = $1 AND filters_key = $2', [userId, key]);
      if (same[0]) return { duplicate: same[0].name };
      const [{ n }]: Array<{ n: number }> = await manager.query('SELECT count(*)::int AS n FROM saved_searches WHERE user_id = $1', [userId]);
      if (n >= max) return 'full';
      const f = input.filters;
      const id = randomUUID();
      await manager.query(
        `INSERT INTO saved_searches (id, user_id, name, search, query, category, listing_type, min_price, max_price, min_revenue, max_revenue, filters_key, alerts, unsubscribe_token)
         VALUES ($1, $2, $3, $4::text, CASE WHEN $4::text IS NULL THEN NULL ELSE websearch_to_tsquery('english', $4::text) END, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [id, userId, input.name, f.search || null, f.category ?? null, f.listing_type, f.min_price ?? null, f.max_price ?? null, f.min_revenue ?? null, f.max_revenue ?? null, key, input.alerts, unsubscribeToken(id)],
      );
      const saved: SavedSearchRow[] = await manager.query(`SELECT ${COLUMNS} FROM saved_searches s WHERE s.id = $1`, [id]);
      return saved[0];
    });
  }

  /** Renames a user's search or turns its alerts on or off; null when it is not theirs. */
  async update(userId: string, id: string, change: { name?: string; alerts?: boolean }): Promise<SavedSearchRow | null> {
    const [rows] = (await this.dataSource.query(
      'UPDATE saved_searches SET name = coalesce($3, name), alerts = coalesce($4, alerts) WHERE id = $1 AND user_id = $2 RETURNING id',
      [id, userId, change.name ?? null, change.alerts ?? null],
    )) as [unknown[], number];
    return rows.length === 1 ? this.find(userId, id) : null;
  }

  /** Deletes a user's search and its matches; false when it is not theirs. */
  async remove(userId: string, id: string): Promise<boolean> {
    const [rows] = (await this.dataSource.query('DELETE FROM saved_searches WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId])) as [unknown[], number];
    return rows.length === 1;
  }

  /** The unsubscribe token a search was saved with; null when the search is gone. */
  async unsubscribeToken(id: string): Promise<string | null> {
    const rows: Array<{ unsubscribe_token: string }> = await this.dataSource.query('SELECT unsubscribe_token FROM saved_searches WHERE id = $1', [id]);
    return rows[0]?.unsubscribe_token ?? null;
  }

  /** Turns a search's alerts off (an unsubscribe link); its name, or null when the search is gone. */
  async stopAlerts(id: string): Promise<string | null> {
    const [rows] = (await this.dataSource.query('UPDATE saved_searches SET alerts = false WHERE id = $1 RETURNING name', [id])) as [Array<{ name: string }>, number];
    return rows[0]?.name ?? null;
  }

  /**
   * Records the matches of an active listing with every search (each once: a redelivered event records nothing new)
   * and answers the new ones whose alerts are on. A seller's own listing matches none of their searches. The filters
   * mean what browse means (browse-query.ts): the same columns, the same parsed text search.
   */
  async recordMatches(manager: EntityManager, listingId: string): Promise<NewMatch[]> {
    return manager.query(
      `WITH l AS (SELECT id, seller_id, title, listing_type, category, price, monthly_revenue, search FROM listings WHERE id = $1 AND status = 'active'),
       m AS (
         INSERT INTO saved_search_matches (search_id, listing_id)
         SELECT s.id, l.id FROM saved_searches s CROSS JOIN l
         WHERE s.user_id <> l.seller_id
           AND (s.category IS NULL OR s.category = l.category)
           AND (s.listing_type = 'all' OR s.listing_type = l.listing_type)
           AND (s.min_price IS NULL OR l.price >= s.min_price)
           AND (s.max_price IS NULL OR l.price <= s.max_price)
           AND (s.min_revenue IS NULL OR l.monthly_revenue >= s.min_revenue)
           AND (s.max_revenue IS NULL OR l.monthly_revenue <= s.max_revenue)
           AND (s.query IS NULL OR l.search @@ s.query)
         ON CONFLICT DO NOTHING
         RETURNING search_id, listing_id, matched_at)
       SELECT s.id AS search_id, s.user_id, s.name AS search_name, s.unsubscribe_token, l.id AS listing_id, l.title AS listing_title, l.listing_type, l.category,
              l.price, m.matched_at
       FROM m JOIN saved_searches s ON s.id = m.search_id JOIN l ON l.id = m.listing_id
       WHERE s.alerts
       ORDER BY s.id`,
      [listingId],
    );
  }

  /** Forgets a deleted user's searches (their matches go with them). */
  async removeUser(userId: string, manager: EntityManager): Promise<void> {
    await manager.query('DELETE FROM saved_searches WHERE user_id = $1', [userId]);
  }
}
