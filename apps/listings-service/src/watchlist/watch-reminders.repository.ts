import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/** A watcher to remind that an auction ends within the day. */
export interface DueReminder {
  user_id: string;
  listing_id: string;
  title: string;
  expires_at: Date;
  price: string;
  bid_count: number;
}

/** How far ahead a reminder looks: the day before an auction ends (ADR 0074). */
export const REMINDER_WINDOW = "interval '24 hours'";

/** The only place that reads and writes the ending-soon reminders: watchlist.ending_reminded_at and the opt-outs. */
@Injectable()
export class WatchRemindersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** True unless the user turned the reminders off. */
  async enabled(userId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM watch_reminder_optouts WHERE user_id = $1', [userId]);
    return rows.length === 0;
  }

  /** Turns a user's reminders on or off (either twice changes nothing). */
  async set(userId: string, enabled: boolean): Promise<void> {
    if (enabled) await this.dataSource.query('DELETE FROM watch_reminder_optouts WHERE user_id = $1', [userId]);
    else await this.dataSource.query('INSERT INTO watch_reminder_optouts (user_id) VALUES ($1) ON CONFLICT DO NOTHING', [userId]);
  }

  /**
   * Claims up to `limit` watches of live auctions that end within the day and were watched before that day began,
   * marking each reminded (once per sale period, whatever later extensions do: a listing approved again after it was
   * reminded is a new period); answers those whose watcher wants reminders.
   * Rows another sweep holds are skipped (SKIP LOCKED). Runs in the caller's transaction, with the events it writes.
   */
  async claimDue(manager: EntityManager, now: Date, limit: number): Promise<DueReminder[]> {
    return manager.query(
      `WITH due AS (
         SELECT w.user_id, w.listing_id FROM watchlist w JOIN listings l ON l.id = w.listing_id
         WHERE (w.ending_reminded_at IS NULL OR w.ending_reminded_at < l.approved_at) AND l.status = 'active' AND l.listing_type = 'auction'
           AND l.expires_at > $1 AND l.expires_at <= $1::timestamptz + ${REMINDER_WINDOW}
           AND w.created_at < l.expires_at - ${REMINDER_WINDOW}
         ORDER BY l.expires_at
         LIMIT $2
         FOR UPDATE OF w SKIP LOCKED),
       marked AS (
         UPDATE watchlist w SET ending_reminded_at = $1 FROM due
         WHERE w.user_id = due.user_id AND w.listing_id = due.listing_id
         RETURNING w.user_id, w.listing_id)
       SELECT m.user_id, l.id AS listing_id, l.title, l.expires_at, l.price, l.bid_count
       FROM marked m JOIN listings l ON l.id = m.listing_id
       WHERE NOT EXISTS (SELECT 1 FROM watch_reminder_optouts o WHERE o.user_id = m.user_id)`,
      [now.toISOString(), limit],
    );
  }

  /** Forgets a deleted user's choice. */
  async removeUser(userId: string, manager: EntityManager): Promise<void> {
    await manager.query('DELETE FROM watch_reminder_optouts WHERE user_id = $1', [userId]);
  }
}
