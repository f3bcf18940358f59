import { z } from 'zod';
import { parseEnv, serviceEnv, type ServiceConfig } from '@market/server-kit';

/** Variables the bidding service reads; parsed once at start. */
export const biddingEnv = {
  ...serviceEnv,
  // How often each replica closes sales whose close job was lost, and rejects lapsed pending bids.
  AUCTION_SWEEP_MS: z.coerce.number().int().min(200).max(3_600_000).default(30_000),
};
export type BiddingConfig = z.infer<z.ZodObject<typeof biddingEnv>>;
export const BIDDING_CONFIG = Symbol('BIDDING_CONFIG');

/** The sweep interval when a caller built only the common service config (in-process test stacks). */
export const DEFAULT_AUCTION_SWEEP_MS = 30_000;

/** Reads the bidding service configuration from the environment, exiting with one line on a bad value. */
export function loadBiddingConfig(): BiddingConfig {
  return parseEnv(biddingEnv);
}

/** The full bidding config from one that may lack the bidding-only values. */
export function withBiddingDefaults(config: ServiceConfig & Partial<BiddingConfig>): BiddingConfig {
  return { ...config, AUCTION_SWEEP_MS: config.AUCTION_SWEEP_MS ?? DEFAULT_AUCTION_SWEEP_MS };
}
