import { Injectable } from '@nestjs/common';
import { publicProfiles, ServiceRpc } from '@market/server-kit';

const TTL_MS = 5 * 60_000;
const MAX_ENTRIES = 10_000;
// A bid never waits long for a name: a slow auth service must not push the bid past the gateway's timeout.
const LOOKUP_TIMEOUT_MS = 300;
export const UNKNOWN_BIDDER = 'Bidder';

/**
 * Bidders' usernames for bid.placed and answers, remembered briefly: usernames never change, and a bid storm would
 * otherwise ask the auth service for the same name on every bid. A lookup gets 300 ms; an unanswered one is not
 * remembered.
 */
@Injectable()
export class BidderNames {
  private readonly known = new Map<string, { name: string; at: number }>();

  constructor(private readonly rpc: ServiceRpc) {}

  /** The username of one bidder, or 'Bidder' when the auth service cannot say. */
  async of(userId: string, now = Date.now()): Promise<string> {
    const hit = this.known.get(userId);
    if (hit && now - hit.at < TTL_MS) return hit.name;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((done) => {
      timer = setTimeout(() => done(null), LOOKUP_TIMEOUT_MS);
    });
    const profiles = await Promise.race([publicProfiles(this.rpc, [userId]), late]).finally(() => clearTimeout(timer));
    const profile = profiles?.get(userId);
    if (!profile) return UNKNOWN_BIDDER;
    this.known.delete(userId);
    if (this.known.size >= MAX_ENTRIES) this.known.delete(this.known.keys().next().value as string);
    this.known.set(userId, { name: profile.username, at: now });
    return profile.username;
  }
}
