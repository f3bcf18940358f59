import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers } from '@market/server-kit';
import { EmailQueue } from './email.queue';

const TOKEN_EMAILS = [
  ['user.verification_requested', 'verify_email', 'verify'],
  ['user.password_reset_requested', 'reset_password', 'reset'],
] as const;

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
    for (const [name, kind, key] of TOKEN_EMAILS) {
      await this.consumers.subscribe(
        name,
        async (event) => {
          const { email, username, token } = event.payload;
          await this.queue.enqueue(`${key}-${event.id}`, { kind, to: email, username, token });
        },
        { purge: true },
      );
    }
    // The old address learns of the change, with its undo link (ADR 0034); a token event like the two above.
    await this.consumers.subscribe(
      'user.email_changed',
      async (event) => {
        const { old_email, new_email, username, token } = event.payload;
        await this.queue.enqueue(`email-changed-${event.id}`, { kind: 'email_changed', to: old_email, username, token, new_email });
      },
      { purge: true },
    );
  }
}
