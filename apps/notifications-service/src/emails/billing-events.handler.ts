import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers } from '@market/server-kit';
import { EmailQueue } from './email.queue';
import { UserContacts } from './user-contacts';

/** Turns billing events into emails to buyers (D11: an expired card hold). */
@Injectable()
export class BillingEventsHandler implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly queue: EmailQueue,
    private readonly contacts: UserContacts,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('invoice.hold_expired', async (event) => {
      const buyer = await this.contacts.find(event.payload.buyer_id);
      if (!buyer) return;
      const { invoice_id, invoice_number, website_title } = event.payload;
      await this.queue.enqueue(`hold-expired-${event.id}`, { kind: 'hold_expired', to: buyer.email, username: buyer.username, invoice_id, invoice_number, website_title });
    });
  }
}
