import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { RpcClient, SERVICE_CONFIG, type ServiceConfig } from '@market/server-kit';
import { RPC, type UserContact } from '@market/contracts';

const RPC_TIMEOUT_MS = 5000;

/** Where to email users: asked of the auth service, which owns addresses (nothing is copied here). */
@Injectable()
export class UserContacts implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly rpc: RpcClient;

  constructor(@Inject(SERVICE_CONFIG) config: ServiceConfig) {
    this.rpc = new RpcClient(config.NATS_URL, 'notifications-service-rpc', RPC_TIMEOUT_MS, config.NATS_SUBJECT_PREFIX);
  }

  async onApplicationBootstrap() {
    await this.rpc.connect();
  }

  async onApplicationShutdown() {
    await this.rpc.close();
  }

  /** The contact of one user, or null when the account is gone; throws when auth cannot answer (the event is retried). */
  async find(userId: string): Promise<UserContact | null> {
    const { contacts } = await this.rpc.send<{ contacts: UserContact[] }>(RPC.auth.contacts, { user_ids: [userId] }, null);
    return contacts[0] ?? null;
  }
}
