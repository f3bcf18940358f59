import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { LISTING_COLUMNS, type ListingRecord } from '../listings/listings.repository';

/** The only place that reads and writes listings.watchlist. */
@Injectable()
export class WatchlistRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Adds an entry: 'added', 'already' when the user watches it, 'listing_gone' when the listing was just deleted. */
  async add(userId: string, listingId: string): Promise<'added' | 'already' | 'listing_gone'> {
    try {
      const rows: unknown[] = await this.dataSource.query(
        'INSERT INTO watchlist (user_id, listing_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING listing_id',
        [userId, listingId],
      );
      return rows.length === 1 ? 'added' : 'already';
    } catch (error) {
      if ((error as { driverError?: { code?: string } }).driverError?.code === '23503') return 'listing_gone';
      throw error;
    }
  }

  /** Removes an entry; false when there was none. */
  async remove(userId: string, listingId: string): Promise<boolean> {
    const [rows] = (await this.dataSource.query('DELETE FROM watchlist WHERE user_id = $1 AND listing_id = $2 RETURNING listing_id', [
      userId,
      listingId,
    ])) as [unknown[], number];
    return rows.length === 1;
  }

  /** A user's entries, newest first, with the listings the public may see. */
  async list(userId: string): Promise<Array<{ watched_at: Date; listing: ListingRecord }>> {
    const rows: Array<ListingRecord & { watched_at: Date }> = await this.dataSource.query(
      `WITH w AS (SELECT listing_id, created_at AS watched_at FROM watchlist WHERE user_id = $1)
       SELECT ${LISTING_COLUMNS}, w.watched_at FROM listings JOIN w ON w.listing_id = listings.id
       WHERE status IN ('active', 'sold', 'expired')
       ORDER BY w.watched_at DESC`,
      [userId],
    );
    return rows.map(({ watched_at, ...listing }) => ({ watched_at, listing }));
  }

  /** Forgets a deleted user's watchlist. */
  async removeUser(userId: string, manager: EntityManager): Promise<void> {
    await manager.query('DELETE FROM watchlist WHERE user_id = $1', [userId]);
  }
}
