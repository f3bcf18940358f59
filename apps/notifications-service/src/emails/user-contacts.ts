import { Injectable } from '@nestjs/common';
import { ServiceRpc } from '@market/server-kit';
import { RPC, type UserContact } from '@market/contracts';

/** Where to email users: asked of the auth service, which owns addresses (nothing is copied here). */
@Injectable()
export class UserContacts {
  constructor(private readonly rpc: ServiceRpc) {}

  /** The contact of one user, or null when the account is gone; throws when auth cannot answer (the event is retried). */
  async find(userId: string): Promise<UserContact | null> {
    const { contacts } = await this.rpc.call(RPC.auth.contacts, { user_ids: [userId] }, null);
    return contacts[0] ?? null;
  }
}
