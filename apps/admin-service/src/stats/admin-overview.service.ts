import { Injectable } from '@nestjs/common';
import { requireAdmin, ServiceRpc } from '@market/server-kit';
import { RPC, type Actor, type AdminStats, type AdminUserDto, type AdminUsersResponse } from '@market/contracts';

/** Admin views composed from the services that own each part. */
@Injectable()
export class AdminOverviewService {
  constructor(private readonly rpc: ServiceRpc) {}

  /** Each count comes from the service that owns it. */
  async stats(actor: Actor): Promise<AdminStats> {
    requireAdmin(actor);
    const [users, listings, billing] = await Promise.all([
      this.rpc.call(RPC.auth.stats, {}, actor),
      this.rpc.call(RPC.listings.stats, {}, actor),
      this.rpc.call(RPC.billing.stats, {}, actor),
    ]);
    return { ...users, ...listings, ...billing };
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
