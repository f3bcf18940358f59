import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers } from '@market/server-kit';
import { EmailQueue } from './email.queue';
import { UserContacts } from './user-contacts';

/** Turns listing events into emails to sellers. */
@Injectable()
export class ListingEventsHandler implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly queue: EmailQueue,
    private readonly contacts: UserContacts,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('listing.approved', async (event) => {
      const seller = await this.contacts.find(event.payload.seller_id);
      if (!seller) return;
      const { listing_id, title, expires_at } = event.payload;
      await this.queue.enqueue(`approved-${event.id}`, { kind: 'listing_approved', to: seller.email, username: seller.username, listing_id, title, expires_at });
    });
  }
}
