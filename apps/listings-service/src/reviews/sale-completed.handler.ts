import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { reviewWindowCloses } from '@market/domain';
import { EventConsumers } from '@market/server-kit';
import { ReviewRepository } from './review.repository';

/** Keeps each sale whose money reached its seller (sale.completed): who may review whom until when, and sales completed (D23). */
@Injectable()
export class SaleCompletedHandler implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly reviews: ReviewRepository,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('sale.completed', async (event, manager) => {
      const completedAt = new Date(event.payload.completed_at);
      await this.reviews.recordSale({ ...event.payload, completed_at: completedAt, reviews_close_at: reviewWindowCloses(completedAt) }, manager);
    });
  }
}
