import { Injectable } from '@nestjs/common';
import { ServiceRpc } from '@market/server-kit';
import { RPC, type UserContact } from '@market/contracts';

/** Where to email users: asked of the auth service, which owns addresses (nothing is copied here). */
@Injectable()
export class UserContacts {
  constructor(private readonly rpc: ServiceRpc) {}

  /** The contact of one user, or null when the account is gone; throws when auth cannot answer (the event is retried). */
  async find(userId: string): Promise<UserContact | null> {
    return (await this.findAll([userId])).get(userId) ?? null;
  }

  /** The contacts of several users in one call, by id (a gone account is absent); throws when auth cannot answer. */
  async findAll(userIds: readonly string[]): Promise<Map<string, UserContact>> {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return new Map();
    const { contacts } = await this.rpc.call(RPC.auth.contacts, { user_ids: ids }, null);
    return new Map(contacts.map((contact) => [contact.id, contact]));
  }
}
