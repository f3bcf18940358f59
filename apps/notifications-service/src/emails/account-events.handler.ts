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
    // Token-carrying events are deleted from the stream once their email is queued.
    await this.consumers.subscribe(
      'user.verification_requested',
      async (event) => {
        const { email, username, token } = event.payload;
        await this.queue.enqueue(`verify-${event.id}`, { kind: 'verify_email', to: email, username, token });
      },
      { purge: true },
    );
    await this.consumers.subscribe(
      'user.password_reset_requested',
      async (event) => {
        const { email, username, token } = event.payload;
        await this.queue.enqueue(`reset-${event.id}`, { kind: 'reset_password', to: email, username, token });
      },
      { purge: true },
    );
  }
}
