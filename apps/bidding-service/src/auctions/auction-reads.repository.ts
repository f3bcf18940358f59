import type { DataSource } from 'typeorm';
import { isUuid } from '@market/contracts';
import { readsPerTurn } from '@market/server-kit';
import type { AuctionRecord } from './auction.records';

/** Unlocked auction reads, one statement per turn of the event loop (ADR 0062). */
export function auctionReads(dataSource: DataSource, columns: string): (listingId: string) => Promise<AuctionRecord | null> {
  return readsPerTurn(async (listingIds: readonly string[]) => {
    // An id that is no uuid has no auction, and must not fail the reads it shares the statement with.
    const ids = [...new Set(listingIds.filter(isUuid).map((id) => id.toLowerCase()))];
    const rows: AuctionRecord[] = ids.length === 0 ? [] : await dataSource.query(`SELECT ${columns} FROM auctions WHERE listing_id = ANY($1::uuid[])`, [ids]);
    const byId = new Map(rows.map((row) => [row.listing_id, row]));
    return listingIds.map((id) => byId.get(id.toLowerCase()) ?? null);
  });
}
