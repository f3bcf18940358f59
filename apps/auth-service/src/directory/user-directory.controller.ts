import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler } from '@market/server-kit';
import { UsersRepository } from '../users/users.repository';

/** Other services' view of users: public profile fields for seller cards, contacts for emails. */
@Controller()
export class UserDirectoryController {
  constructor(private readonly users: UsersRepository) {}

  /** Public fields only: anyone may see a seller's name, username and verified mark. */
  @RpcHandler(RPC.auth.publicProfiles)
  async publicProfiles(input: RpcParsed<typeof RPC.auth.publicProfiles>) {
    const users = await this.users.findByIds([...new Set(input.user_ids)]);
    return { profiles: users.map((u) => ({ id: u.id, username: u.username, name: u.name, verified: u.verified })) };
  }

  /** A seller page's account: an unknown, suspended or deleted one is null alike, so the page never tells them apart. */
  @RpcHandler(RPC.auth.profileByUsername)
  async profileByUsername(input: RpcParsed<typeof RPC.auth.profileByUsername>) {
    const user = await this.users.findActiveByUsername(input.username);
    if (!user) return { profile: null };
    return { profile: { id: user.id, username: user.username, name: user.name, verified: user.verified, member_since: user.createdAt.toISOString() } };
  }

  /** Emails of live users, for the notifications service; the gateway never routes this subject. */
  @RpcHandler(RPC.auth.contacts)
  async contacts(input: RpcParsed<typeof RPC.auth.contacts>) {
    const users = await this.users.findByIds([...new Set(input.user_ids)]);
    return {
      contacts: users.flatMap((u) => (u.status === 'deleted' ? [] : [{ id: u.id, username: u.username, email: u.email, status: u.status }])),
    };
  }
}
