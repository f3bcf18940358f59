import type { ServiceDatabase } from '@market/server-kit';
import { CreateEmails1763800200000 } from './migrations/1763800200000-create-emails';
import { EmailsRetention1764560000000 } from './migrations/1764560000000-emails-retention';
import { CreateMessages1763801500000 } from './migrations/1763801500000-create-messages';
import { BidEmailWindows1764950000000 } from './migrations/1764950000000-bid-email-windows';
import { SearchAlerts1765100100000 } from './migrations/1765100100000-search-alerts';

/** The `notifications` schema: what the notifications-service and its migrate step (ADR 0053) open. */
export const NOTIFICATIONS_DATABASE: ServiceDatabase = {
  schema: 'notifications',
  entities: [],
  migrations: [CreateEmails1763800200000, CreateMessages1763801500000, EmailsRetention1764560000000, BidEmailWindows1764950000000, SearchAlerts1765100100000],
};
