import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { z } from 'zod';
import { RPC, type PublicProfile, type RpcEnvelope, type UserContact } from '@market/contracts';
import { parseInput } from '@market/server-kit';
import { UsersRepository } from '../users/users.repository';

const UserIdsSchema = z.object({ user_ids: z.array(z.uuid()).max(1000) });

/** Other services' view of users: public profile fields for seller cards, contacts for emails. */
@Controller()
export class UserDirectoryController {
  constructor(private readonly users: UsersRepository) {}

  /** Public fields only: anyone may see a seller's name, username and verified mark. */
  @MessagePattern(RPC.auth.publicProfiles)
  async publicProfiles(@Payload() message: RpcEnvelope): Promise<{ profiles: PublicProfile[] }> {
    const { user_ids } = parseInput(UserIdsSchema, message.data);
    const users = await this.users.findByIds([...new Set(user_ids)]);
    return { profiles: users.map((u) => ({ id: u.id, username: u.username, name: u.name, verified: u.verified })) };
  }

  /** Emails of live users, for the notifications service; the gateway never routes this subject. */
  @MessagePattern(RPC.auth.contacts)
  async contacts(@Payload() message: RpcEnvelope): Promise<{ contacts: UserContact[] }> {
    const { user_ids } = parseInput(UserIdsSchema, message.data);
    const users = await this.users.findByIds([...new Set(user_ids)]);
    return {
      contacts: users.flatMap((u) => (u.status === 'deleted' ? [] : [{ id: u.id, username: u.username, email: u.email, status: u.status }])),
    };
  }
}
