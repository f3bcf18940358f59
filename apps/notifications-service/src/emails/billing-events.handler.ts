import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers } from '@market/server-kit';
import { EmailQueue } from './email.queue';
import { UserContacts } from './user-contacts';
import { holdExpiredSellerNotice } from './marketplace-email-templates';

/** Turns billing events into emails (D11: an expired card hold, to its buyer and its seller). */
@Injectable()
export class BillingEventsHandler implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly queue: EmailQueue,
    private readonly contacts: UserContacts,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('invoice.hold_expired', async (event) => {
      const { invoice_id, invoice_number, website_title, buyer_id, seller_id, test_mode } = event.payload;
      const buyer = await this.contacts.find(buyer_id);
      if (buyer) {
        await this.queue.enqueue(`hold-expired-${event.id}`, { kind: 'hold_expired', to: buyer.email, username: buyer.username, invoice_id, invoice_number, website_title, test_mode });
      }
      // Events written before seller_id existed carry no seller to tell.
      const seller = seller_id ? await this.contacts.find(seller_id) : null;
      if (seller) {
        const notice = holdExpiredSellerNotice(event.payload);
        await this.queue.enqueue(`hold_expired_seller-${event.id}`, { kind: 'notice', category: 'hold_expired_seller', essential: false, to: seller.email, username: seller.username, notice });
      }
    });
  }
}
