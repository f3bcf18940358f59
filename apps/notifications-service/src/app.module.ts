import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, ServiceRpc, SettingsModule } from '@market/server-kit';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from './notifications.config';
import { CreateEmails1763800200000 } from './migrations/1763800200000-create-emails';
import { Mailer } from './emails/mailer';
import { EmailsRepository } from './emails/emails.repository';
import { EmailQueue } from './emails/email.queue';
import { AccountEventsHandler } from './emails/account-events.handler';
import { EmailsController } from './emails/emails.controller';
import { ListingEventsHandler } from './emails/listing-events.handler';
import { BillingEventsHandler } from './emails/billing-events.handler';
import { UserContacts } from './emails/user-contacts';
import { MarketplaceEventsHandler } from './emails/marketplace-events.handler';
import { DisputeEventsHandler } from './emails/dispute-events.handler';
import { SaleLapseEventsHandler } from './emails/sale-lapse-events.handler';
import { EmailsRetention1764560000000 } from './migrations/1764560000000-emails-retention';
import { CreateMessages1763801500000 } from './migrations/1763801500000-create-messages';
import { MessagesController } from './messages/messages.controller';
import { MessagesService } from './messages/messages.service';
import { MessagesRepository } from './messages/messages.repository';
import { ContactController } from './contact/contact.controller';
import { ContactService } from './contact/contact.service';
import { ContactRepository } from './contact/contact.repository';

/** The notifications service: emails through a BullMQ queue, user messages and contact mail, in the `notifications` schema. */
export function notificationsAppModule(config: NotificationsConfig): DynamicModule {
  return defineServiceModule(
    { service: 'notifications-service', schema: 'notifications', config, entities: [], migrations: [CreateEmails1763800200000, CreateMessages1763801500000, EmailsRetention1764560000000],
      // The email log is kept RETENTION_EMAILS_DAYS (ADR 0046).
      retention: (periods) => [{ table: 'emails', column: 'sent_at', keepMs: periods.emailsMs }] },
    {
      imports: [SettingsModule],
      controllers: [EmailsController, MessagesController, ContactController],
      providers: [
        { provide: NOTIFICATIONS_CONFIG, useValue: config },
        Mailer,
        EmailsRepository,
        EmailQueue,
        AccountEventsHandler,
        ListingEventsHandler,
        BillingEventsHandler,
        MarketplaceEventsHandler,
        DisputeEventsHandler,
        SaleLapseEventsHandler,
        UserContacts,
        ServiceRpc,
        MessagesRepository,
        MessagesService,
        ContactRepository,
        ContactService,
      ],
    },
  );
}
