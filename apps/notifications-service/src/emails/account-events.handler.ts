import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers } from '@market/server-kit';
import { EmailQueue } from './email.queue';

/** Turns account events into emails. */
@Injectable()
export class AccountEventsHandler implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly queue: EmailQueue,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('user.registered', async (event) => {
      await this.queue.enqueue(`welcome-${event.id}`, {
        kind: 'welcome',
        to: event.payload.email,
        username: event.payload.username,
      });
    });
  }
}
