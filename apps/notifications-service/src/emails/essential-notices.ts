import type { Logger } from '@nestjs/common';
import type { EventEnvelope, EventName, EventPayloads } from '@market/contracts';
import type { EventConsumers } from '@market/server-kit';
import type { EmailQueue } from './email.queue';
import type { UserContacts } from './user-contacts';
import type { Notice } from './notice';
import { subscribeMailable } from './notified-events';

/**
 * Sends notices about money already decided (disputes, payouts: ADR 0039, D22): the marketplace's email switch never
 * stops them, and one job per event and recipient means a redelivered event sends nothing twice. An event missing a
 * field its email needs (or, with `timely`, older than a day) is acknowledged without an email.
 */
export class EssentialNotices {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly queue: EmailQueue,
    private readonly contacts: UserContacts,
    private readonly logger: Logger,
  ) {}

  /** Subscribes `handler` to an event, guarded by the fields its email needs. */
  on<N extends EventName>(name: N, required: readonly (keyof EventPayloads[N] & string)[], handler: (event: EventEnvelope<N>) => Promise<void>, options = { timely: true }) {
    return subscribeMailable(this.consumers, this.logger, name, required, handler, options);
  }

  /** Queues one notice to a member, as its category's job for this event. */
  async notify(event: EventEnvelope, category: string, userId: string, notice: Notice): Promise<void> {
    const user = await this.contacts.find(userId);
    if (!user) return;
    await this.queue.enqueue(`${category}-${event.id}`, { kind: 'notice', category, essential: true, to: user.email, username: user.username, notice });
  }
}
