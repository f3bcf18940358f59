import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The active listings as sitemaps list them (ADR 0071): what browse shows, in id order. */
@Injectable()
export class SitemapRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** How many listings are active. */
  async activeCount(): Promise<number> {
    const [row]: { n: number }[] = await this.dataSource.query(`SELECT count(*)::int AS n FROM listings WHERE status = 'active'`);
    return row.n;
  }

  /** A slice of the active listings in id order: their ids and when each last changed. */
  activeSlice(offset: number, limit: number): Promise<{ id: string; updated_at: Date }[]> {
    return this.dataSource.query(`SELECT id, updated_at FROM listings WHERE status = 'active' ORDER BY id OFFSET $1 LIMIT $2`, [offset, limit]);
  }
}
