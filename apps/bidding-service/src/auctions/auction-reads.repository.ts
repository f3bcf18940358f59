import DataLoader from 'dataloader';
import type { DataSource } from 'typeorm';
import type { AuctionRecord } from './auctions.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Unlocked auction reads that share one statement per turn of the event loop (ADR 0062): the statement starts after every
 * read of the turn was asked for, so each sees all that had committed when it asked. Nothing is kept after it.
 */
export function auctionReads(dataSource: DataSource, columns: string): DataLoader<string, AuctionRecord | null> {
  return new DataLoader<string, AuctionRecord | null>(
    async (listingIds) => {
      // An id that is no uuid has no auction, and must not fail the reads it shares the statement with.
      const ids = [...new Set(listingIds.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
      const rows: AuctionRecord[] = ids.length === 0 ? [] : await dataSource.query(`SELECT ${columns} FROM auctions WHERE listing_id = ANY($1::uuid[])`, [ids]);
      const byId = new Map(rows.map((row) => [row.listing_id, row]));
      return listingIds.map((id) => byId.get(id.toLowerCase()) ?? null);
    },
    { cache: false, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
  );
}
