import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, ServiceRpc, SettingsModule } from '@market/server-kit';
import { NOTIFICATIONS_DATABASE } from './notifications.database';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from './notifications.config';
import { Mailer } from './emails/mailer';
import { EmailsRepository } from './emails/emails.repository';
import { EmailQueue } from './emails/email.queue';
import { AccountEventsHandler } from './emails/account-events.handler';
import { EmailsController } from './emails/emails.controller';
import { ListingEventsHandler } from './emails/listing-events.handler';
import { BillingEventsHandler } from './emails/billing-events.handler';
import { UserContacts } from './emails/user-contacts';
import { MarketplaceEventsHandler } from './emails/marketplace-events.handler';
import { BidEventsHandler } from './emails/bid-events.handler';
import { BidNoticesRepository } from './emails/bid-notices.repository';
import { SearchAlertsRepository } from './emails/search-alerts.repository';
import { BuyerAlertEventsHandler } from './emails/buyer-alert-events.handler';
import { DisputeEventsHandler } from './emails/dispute-events.handler';
import { PayoutEventsHandler } from './emails/payout-events.handler';
import { SaleLapseEventsHandler } from './emails/sale-lapse-events.handler';
import { MessagesController } from './messages/messages.controller';
import { MessagesService } from './messages/messages.service';
import { MessagesRepository } from './messages/messages.repository';
import { ContactController } from './contact/contact.controller';
import { ContactService } from './contact/contact.service';
import { ContactRepository } from './contact/contact.repository';

const DAY_MS = 24 * 3600 * 1000;

/** The notifications service: emails through a BullMQ queue, user messages and contact mail, in the `notifications` schema. */
export function notificationsAppModule(config: NotificationsConfig): DynamicModule {
  return defineServiceModule(
    { service: 'notifications-service', config, ...NOTIFICATIONS_DATABASE,
      // The email log is kept RETENTION_EMAILS_DAYS (ADR 0046); the bid email windows only while they can matter
      // (ADR 0056): an outbid time past its interval, a closed digest past the day its email job may retry.
      retention: (periods) => [
        { table: 'emails', column: 'sent_at', keepMs: periods.emailsMs },
        { table: 'outbid_notices', column: 'last_sent_at', keepMs: Math.max(DAY_MS, config.OUTBID_EMAIL_INTERVAL_MS) },
        { table: 'bid_digests', column: 'closed_at', keepMs: 2 * DAY_MS },
        // A search's last closed digest sets when its next may go out: kept a window past that, plus the retry day.
        { table: 'search_alert_digests', column: 'closed_at', keepMs: config.SEARCH_ALERT_INTERVAL_MS + 2 * DAY_MS },
      ] },
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
        BidEventsHandler,
        BidNoticesRepository,
        SearchAlertsRepository,
        BuyerAlertEventsHandler,
        DisputeEventsHandler,
        PayoutEventsHandler,
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
