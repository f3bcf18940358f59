import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { EventEnvelope, EventName, EventPayloads } from '@market/contracts';
import { EventConsumers } from '@market/server-kit';
import { EmailQueue } from './email.queue';
import { UserContacts } from './user-contacts';
import type { Notice } from './notice';
import { unmailableReason } from './notified-events';
import { disputeEscalatedNotice, disputeOpenedSellerNotice, disputeResolvedNotice } from './dispute-email-templates';

/**
 * Turns dispute events into emails (ADR 0039): the seller hears of a dispute, both parties of its escalation and its
 * outcome. They are essential (money is held on a decision), so the marketing switch never stops them; one job per
 * event and recipient, so a redelivered event sends nothing twice.
 */
@Injectable()
export class DisputeEventsHandler implements OnApplicationBootstrap {
  private readonly logger = new Logger('DisputeEvents');

  constructor(
    private readonly consumers: EventConsumers,
    private readonly queue: EmailQueue,
    private readonly contacts: UserContacts,
  ) {}

  async onApplicationBootstrap() {
    await this.on('dispute.opened', ['seller_id'], (event) => this.notify(event, 'dispute_opened_seller', event.payload.seller_id, disputeOpenedSellerNotice(event.payload)));
    await this.on('dispute.escalated', ['buyer_id', 'seller_id'], async (event) => {
      await this.notify(event, 'dispute_escalated_buyer', event.payload.buyer_id, disputeEscalatedNotice(event.payload));
      await this.notify(event, 'dispute_escalated_seller', event.payload.seller_id, disputeEscalatedNotice(event.payload));
    });
    await this.on('dispute.resolved', ['buyer_id', 'seller_id'], async (event) => {
      await this.notify(event, 'dispute_resolved_buyer', event.payload.buyer_id, disputeResolvedNotice(event.payload, 'buyer'));
      await this.notify(event, 'dispute_resolved_seller', event.payload.seller_id, disputeResolvedNotice(event.payload, 'seller'));
    });
  }

  private on<N extends EventName>(name: N, required: readonly (keyof EventPayloads[N] & string)[], handler: (event: EventEnvelope<N>) => Promise<void>) {
    return this.consumers.subscribe(name, async (event) => {
      const reason = unmailableReason(event, required);
      if (reason) {
        this.logger.warn(`No email for ${name} ${event.id}: ${reason}`);
        return;
      }
      await handler(event);
    });
  }

  private async notify(event: EventEnvelope, category: string, userId: string, notice: Notice): Promise<void> {
    const user = await this.contacts.find(userId);
    if (!user) return;
    await this.queue.enqueue(`${category}-${event.id}`, { kind: 'notice', category, essential: true, to: user.email, username: user.username, notice });
  }
}
