import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { EventPayloads } from '@market/contracts';
import { DigestNotCommittedError } from './bid-notices.repository';

/** How many listings one alert email names; past that it says how many more matched. */
export const ALERT_LISTINGS = 20;
const CONSUMER = 'notifications-service';
/**
 * A search's first digest gathers for a minute (or its window, when shorter) before it is mailed: listings approved
 * together arrive in one email, and the job never runs before the transaction that opened its digest has committed.
 */
const GATHER_MS = 60_000;

type MatchedEvent = EventPayloads['saved_search.matched'];
/** One search a listing matched, with the listing (saved_search.matched, one of its matches): what a digest gathers. */
export type SearchMatch = Omit<MatchedEvent, 'matches' | 'matched_at'> & MatchedEvent['matches'][number];

/** A listing in an alert digest. */
export interface AlertListing {
  listing_id: string;
  title: string;
  listing_type: 'auction' | 'fixed';
  category: string;
  price: number;
}

/** What one alert email says: the search, its new listings, and how to stop them. */
export interface SearchAlertDigest {
  id: string;
  search_id: string;
  search_name: string;
  unsubscribe_token: string;
  listings: AlertListing[];
  more: number;
}

/**
 * The windows of saved-search alerts (ADR 0074), kept like the bid digests (ADR 0056): one open digest per search
 * gathers its matches, due when the search's last email is a window old (a minute after its first match when there
 * was none), so a search mails
 * at most once per window however many listings match. Event-side calls run in the consumer's transaction.
 */
@Injectable()
export class SearchAlertsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Adds a match to its search's open digest, or opens one named `id` (`<event id>_<search id>`). `opened` says the
   * caller schedules its email `delayMs` from now; `overdue`, that it is still open a minute past its time (its job
   * lost with Redis).
   */
  async addMatch(manager: EntityManager, id: string, e: SearchMatch, intervalMs: number): Promise<{ id: string; opened: boolean; overdue: boolean; delayMs: number }> {
    const listing: AlertListing = { listing_id: e.listing_id, title: e.listing_title, listing_type: e.listing_type, category: e.category, price: e.price };
    const rows: Array<{ id: string; delay_ms: number; overdue: boolean; fresh: boolean }> = await manager.query(
      `INSERT INTO search_alert_digests AS d (id, search_id, user_id, search_name, unsubscribe_token, listings, due_at)
       VALUES ($1, $2, $3, $4, $5, jsonb_build_array($6::jsonb),
               greatest(now() + $9::float8 * interval '1 millisecond',
                        coalesce((SELECT max(closed_at) FROM search_alert_digests WHERE search_id = $2), '-infinity') + $7::float8 * interval '1 millisecond'))
       ON CONFLICT (search_id) WHERE closed_at IS NULL DO UPDATE SET
         search_name = EXCLUDED.search_name,
         listings = CASE WHEN d.listings @> jsonb_build_array(jsonb_build_object('listing_id', $8::text)) OR jsonb_array_length(d.listings) >= ${ALERT_LISTINGS}
                         THEN d.listings ELSE d.listings || EXCLUDED.listings END,
         more = CASE WHEN d.listings @> jsonb_build_array(jsonb_build_object('listing_id', $8::text)) OR jsonb_array_length(d.listings) < ${ALERT_LISTINGS}
                     THEN d.more ELSE d.more + 1 END
       RETURNING id, greatest(0, extract(epoch FROM due_at - now()) * 1000)::float8 AS delay_ms, due_at < now() - interval '1 minute' AS overdue, (xmax = 0) AS fresh`,
      [id, e.search_id, e.user_id, e.search_name, e.unsubscribe_token, JSON.stringify(listing), intervalMs, e.listing_id, Math.min(GATHER_MS, intervalMs)],
    );
    const row = rows[0];
    return { id: row.id, opened: row.fresh && row.id === id, overdue: row.overdue, delayMs: Math.ceil(row.delay_ms) };
  }

  /** Removes a digest nobody can receive (the account is gone). */
  async dropDigest(manager: EntityManager, id: string): Promise<void> {
    await manager.query('DELETE FROM search_alert_digests WHERE id = $1', [id]);
  }

  /**
   * Closes a digest (once; a retried job finds it closed and sends the same) and answers what it gathered, so the next
   * match opens the next window. Null when it is gone; DigestNotCommittedError while its event is not applied yet.
   */
  async closeDigest(id: string): Promise<SearchAlertDigest | null> {
    const [rows]: [SearchAlertDigest[], number] = await this.dataSource.query(
      `UPDATE search_alert_digests SET closed_at = coalesce(closed_at, now()) WHERE id = $1
       RETURNING id, search_id, search_name, unsubscribe_token, listings, more`,
      [id],
    );
    if (rows[0]) return rows[0];
    const eventId = id.split('_')[0];
    const applied: unknown[] = await this.dataSource.query('SELECT 1 FROM processed_events WHERE event_id = $1 AND consumer = $2', [eventId, CONSUMER]);
    if (applied.length === 0) throw new DigestNotCommittedError(`Search alert digest ${id} is not committed yet`);
    return null;
  }
}
