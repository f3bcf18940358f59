import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { boundedRead } from '@market/server-kit';

/** Listing counts by status for the business metrics; read on scrape under a short statement timeout (ADR 0048). */
@Injectable()
export class ListingCountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** How many listings are in each status (every status present at least once). */
  async byStatus(): Promise<{ status: string; count: number }[]> {
    return boundedRead(this.dataSource, (manager) => manager.query('SELECT status, count(*)::int AS count FROM listings GROUP BY status'));
  }
}
