import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { EventEnvelope } from '@market/contracts';
import { EventConsumers } from '@market/server-kit';
import { EmailQueue } from './email.queue';
import { UserContacts } from './user-contacts';
import type { Notice } from './notice';
import { unmailableReason } from './notified-events';
import { saleLapsedBuyerNotice, saleLapsedSellerNotice } from './sale-lapse-email-templates';

/**
 * Emails both parties of a sale that lapsed unpaid or an admin cancelled (ADR 0043), from sale.lapsed. They are
 * essential (a sale and a strike changed), so the marketing switch never stops them; one job per event and recipient,
 * so a redelivered event sends nothing twice.
 */
@Injectable()
export class SaleLapseEventsHandler implements OnApplicationBootstrap {
  private readonly logger = new Logger('SaleLapseEvents');

  constructor(
    private readonly consumers: EventConsumers,
    private readonly queue: EmailQueue,
    private readonly contacts: UserContacts,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('sale.lapsed', async (event) => {
      const reason = unmailableReason(event, ['buyer_id', 'seller_id']);
      if (reason) {
        this.logger.warn(`No email for sale.lapsed ${event.id}: ${reason}`);
        return;
      }
      // A refunded buyer already has payment.refunded's email; the seller still learns the listing is back on sale.
      if (event.payload.reason !== 'refunded') await this.notify(event, 'sale_lapsed_buyer', event.payload.buyer_id, saleLapsedBuyerNotice(event.payload));
      await this.notify(event, 'sale_lapsed_seller', event.payload.seller_id, saleLapsedSellerNotice(event.payload));
    });
  }

  private async notify(event: EventEnvelope, category: string, userId: string, notice: Notice): Promise<void> {
    const user = await this.contacts.find(userId);
    if (!user) return;
    await this.queue.enqueue(`${category}-${event.id}`, { kind: 'notice', category, essential: true, to: user.email, username: user.username, notice });
  }
}
