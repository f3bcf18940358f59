import { RPC, type PublicProfile } from '@market/contracts';
import type { RpcClient } from './rpc-client';

/**
 * Public profiles (username, name, verified) of some users, by id, asked of the auth service. When it cannot answer
 * the map is empty: pages that show names (seller cards, bid history) still show everything else.
 */
export async function publicProfiles(rpc: RpcClient, userIds: string[]): Promise<Map<string, PublicProfile>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  try {
    const { profiles } = await rpc.call(RPC.auth.publicProfiles, { user_ids: ids }, null);
    return new Map(profiles.map((p) => [p.id, p]));
  } catch {
    // Names are optional here; RpcClient logs a service that does not answer.
    return new Map();
  }
}
