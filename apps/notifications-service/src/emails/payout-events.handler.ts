import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers } from '@market/server-kit';
import { EmailQueue } from './email.queue';
import { UserContacts } from './user-contacts';
import { EssentialNotices } from './essential-notices';
import { payoutSentNotice, payoutWaitingNotice } from './payout-email-templates';

/**
 * Turns payout events into emails (D19 "funds released", D22): the seller learns their payout was sent (with the fee
 * and net) or waits for their payout account, the buyer that the purchase is complete. Money already decided, so a late
 * consumer still sends them.
 */
@Injectable()
export class PayoutEventsHandler implements OnApplicationBootstrap {
  private readonly notices: EssentialNotices;

  constructor(consumers: EventConsumers, queue: EmailQueue, contacts: UserContacts) {
    this.notices = new EssentialNotices(consumers, queue, contacts, new Logger('PayoutEvents'));
  }

  async onApplicationBootstrap() {
    const untimely = { timely: false };
    await this.notices.on('payout.sent', ['buyer_id', 'seller_id', 'net'], async (event) => {
      await this.notices.notify(event, 'payout_sent_seller', event.payload.seller_id, payoutSentNotice(event.payload, 'seller'));
      await this.notices.notify(event, 'payout_sent_buyer', event.payload.buyer_id, payoutSentNotice(event.payload, 'buyer'));
    }, untimely);
    await this.notices.on(
      'payout.waiting',
      ['seller_id', 'net'],
      (event) => this.notices.notify(event, 'payout_waiting_seller', event.payload.seller_id, payoutWaitingNotice(event.payload)),
      untimely,
    );
  }
}
