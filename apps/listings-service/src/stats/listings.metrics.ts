import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { collectedGauge, scrapeRead } from '@market/server-kit';
import { ListingCountsRepository } from './listing-counts.repository';

/** The business gauge of listings by status (draft, pending, active, sold, expired...), read on scrape (ADR 0048). */
@Injectable()
export class ListingsMetrics implements OnApplicationShutdown {
  private readonly remove: () => void;

  constructor(counts: ListingCountsRepository) {
    const byStatus = scrapeRead(() => counts.byStatus());
    this.remove = collectedGauge({ name: 'market_listings', help: 'Listings by status', labelNames: ['status'] }, async () =>
      (await byStatus()).map((row) => ({ labels: { status: row.status }, value: row.count })),
    );
  }

  onApplicationShutdown() {
    this.remove();
  }
}
