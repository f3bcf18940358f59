import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { boundedRead } from '@market/server-kit';

/**
 * Listing counts: by status for the business metrics (read on scrape under a short statement timeout, ADR 0048),
 * overall and per seller for the admin views.
 */
@Injectable()
export class ListingCountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** How many listings are in each status (every status present at least once). */
  async byStatus(): Promise<{ status: string; count: number }[]> {
    return boundedRead(this.dataSource, (manager) => manager.query('SELECT status, count(*)::int AS count FROM listings GROUP BY status'));
  }

  /** All listings and active ones, for the admin overview. */
  async stats(): Promise<{ total_listings: number; active_listings: number }> {
    const [row] = await this.dataSource.query(
      `SELECT count(*)::int AS total_listings, (count(*) FILTER (WHERE status = 'active'))::int AS active_listings FROM listings`,
    );
    return row;
  }

  /** Listing counts per seller (all, active, sold) for the admin Users tab. */
  async sellerCounts(sellerIds: string[]): Promise<Array<{ seller_id: string; listing_count: number; active: number; sold: number }>> {
    return this.dataSource.query(
      `SELECT seller_id, count(*)::int AS listing_count, (count(*) FILTER (WHERE status = 'active'))::int AS active,
              (count(*) FILTER (WHERE status = 'sold'))::int AS sold
       FROM listings WHERE seller_id = ANY($1::uuid[]) GROUP BY seller_id`,
      [sellerIds],
    );
  }
}
