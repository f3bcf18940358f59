import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { EventEnvelope, EventName, EventPayloads } from '@market/contracts';
import { EventConsumers } from '@market/server-kit';
import { EmailQueue } from './email.queue';
import { UserContacts } from './user-contacts';
import type { Notice } from './notice';
import { unmailableReason } from './notified-events';
import { payoutSentNotice, payoutWaitingNotice } from './payout-email-templates';

/**
 * Turns payout events into emails (D19 "funds released", D22): the seller learns their payout was sent (with the fee
 * and net) or waits for their payout account, the buyer that the purchase is complete. They are about money already
 * decided, so the marketing switch never stops them and a late consumer still sends them; one job per event and
 * recipient, so a redelivered event sends nothing twice.
 */
@Injectable()
export class PayoutEventsHandler implements OnApplicationBootstrap {
  private readonly logger = new Logger('PayoutEvents');

  constructor(
    private readonly consumers: EventConsumers,
    private readonly queue: EmailQueue,
    private readonly contacts: UserContacts,
  ) {}

  async onApplicationBootstrap() {
    await this.on('payout.sent', ['buyer_id', 'seller_id', 'net'], async (event) => {
      await this.notify(event, 'payout_sent_seller', event.payload.seller_id, payoutSentNotice(event.payload, 'seller'));
      await this.notify(event, 'payout_sent_buyer', event.payload.buyer_id, payoutSentNotice(event.payload, 'buyer'));
    });
    await this.on('payout.waiting', ['seller_id', 'net'], (event) => this.notify(event, 'payout_waiting_seller', event.payload.seller_id, payoutWaitingNotice(event.payload)));
  }

  private on<N extends EventName>(name: N, required: readonly (keyof EventPayloads[N] & string)[], handler: (event: EventEnvelope<N>) => Promise<void>) {
    return this.consumers.subscribe(name, async (event) => {
      const reason = unmailableReason(event, required, new Date(), false);
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
