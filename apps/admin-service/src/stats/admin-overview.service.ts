import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { countDeadLetters, NATS_CONNECTION, requireAdmin, SERVICE_CONFIG, ServiceRpc, type ServiceConfig } from '@market/server-kit';
import { RPC, type Actor, type AdminStats, type AdminUserDto, type AdminUsersResponse } from '@market/contracts';

/** Admin views composed from the services that own each part. */
@Injectable()
export class AdminOverviewService {
  private readonly logger = new Logger('AdminOverview');

  constructor(
    private readonly rpc: ServiceRpc,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<ServiceConfig, 'EVENTS_STREAM' | 'EVENTS_PREFIX'>,
  ) {}

  /** Each count comes from the service that owns it; the dead letters from the events stream (ADR 0046). */
  async stats(actor: Actor): Promise<AdminStats> {
    requireAdmin(actor);
    const [users, listings, billing, deadLetters] = await Promise.all([
      this.rpc.call(RPC.auth.stats, {}, actor),
      this.rpc.call(RPC.listings.stats, {}, actor),
      this.rpc.call(RPC.billing.stats, {}, actor),
      this.deadLetters(),
    ]);
    return { ...users, ...listings, ...billing, dead_letters: deadLetters };
  }

  /** Dead letters in the events stream, or null when JetStream did not answer (the other counts still show). */
  private async deadLetters(): Promise<number | null> {
    try {
      return await countDeadLetters(this.nc, { stream: this.config.EVENTS_STREAM, prefix: this.config.EVENTS_PREFIX });
    } catch (error) {
      this.logger.warn(`Could not count dead letters: ${(error as Error).message}`);
      return null;
    }
  }

  /** Users from the auth service with their listing counts from the listings service. */
  async users(actor: Actor, limit: number): Promise<AdminUsersResponse> {
    requireAdmin(actor);
    const { users, total } = await this.rpc.call(RPC.auth.listUsers, { limit }, actor);
    const counts = users.length
      ? await this.rpc.call(RPC.listings.sellerCounts, { user_ids: users.map((u) => u.id) }, actor)
      : {};
    const rows: AdminUserDto[] = users.map((user) => ({
      ...user,
      listingCount: counts[user.id]?.listingCount ?? 0,
      activeListings: counts[user.id]?.activeListings ?? 0,
      soldListings: counts[user.id]?.soldListings ?? 0,
    }));
    return { users: rows, total };
  }
}
