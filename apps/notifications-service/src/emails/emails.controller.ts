import { Controller } from '@nestjs/common';
import { RPC } from '@market/contracts';
import { RpcHandler, requireAdmin, type RpcCall } from '@market/server-kit';
import { EmailsRepository } from './emails.repository';

const RECENT_LIMIT = 50;

/** Lets admins read the latest emails (the mailbox when no SMTP server is configured). */
@Controller()
export class EmailsController {
  constructor(private readonly emails: EmailsRepository) {}

  @RpcHandler(RPC.notifications.recentEmails)
  async recent(_input: unknown, call: RpcCall) {
    requireAdmin(call.actor);
    return { emails: await this.emails.recent(RECENT_LIMIT) };
  }
}
