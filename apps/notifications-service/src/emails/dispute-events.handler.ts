import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers } from '@market/server-kit';
import { EmailQueue } from './email.queue';
import { UserContacts } from './user-contacts';
import { EssentialNotices } from './essential-notices';
import { disputeEscalatedNotice, disputeOpenedSellerNotice, disputeResolvedNotice } from './dispute-email-templates';

/**
 * Turns dispute events into emails (ADR 0039): the seller hears of a dispute, both parties of its escalation and its
 * outcome. They are essential (money is held on a decision), so the marketing switch never stops them; one job per
 * event and recipient, so a redelivered event sends nothing twice.
 */
@Injectable()
export class DisputeEventsHandler implements OnApplicationBootstrap {
  private readonly notices: EssentialNotices;

  constructor(consumers: EventConsumers, queue: EmailQueue, contacts: UserContacts) {
    this.notices = new EssentialNotices(consumers, queue, contacts, new Logger('DisputeEvents'));
  }

  async onApplicationBootstrap() {
    const notices = this.notices;
    await notices.on('dispute.opened', ['seller_id'], (event) => notices.notify(event, 'dispute_opened_seller', event.payload.seller_id, disputeOpenedSellerNotice(event.payload)));
    await notices.on('dispute.escalated', ['buyer_id', 'seller_id'], async (event) => {
      await notices.notify(event, 'dispute_escalated_buyer', event.payload.buyer_id, disputeEscalatedNotice(event.payload));
      await notices.notify(event, 'dispute_escalated_seller', event.payload.seller_id, disputeEscalatedNotice(event.payload));
    });
    await notices.on('dispute.resolved', ['buyer_id', 'seller_id'], async (event) => {
      await notices.notify(event, 'dispute_resolved_buyer', event.payload.buyer_id, disputeResolvedNotice(event.payload, 'buyer'));
      await notices.notify(event, 'dispute_resolved_seller', event.payload.seller_id, disputeResolvedNotice(event.payload, 'seller'));
    });
  }
}
