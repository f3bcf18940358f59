import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RPC, type RpcEnvelope } from '@market/contracts';
import { requireAdmin } from '@market/server-kit';
import { EmailsRepository } from './emails.repository';

const RECENT_LIMIT = 50;

/** Lets admins read the latest emails (the mailbox when no SMTP server is configured). */
@Controller()
export class EmailsController {
  constructor(private readonly emails: EmailsRepository) {}

  @MessagePattern(RPC.notifications.recentEmails)
  async recent(@Payload() message: RpcEnvelope) {
    requireAdmin(message.meta.actor);
    return { emails: await this.emails.recent(RECENT_LIMIT) };
  }
}
