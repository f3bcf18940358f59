import { z } from 'zod';
import { parseEnv, serviceEnv, type ServiceConfig } from '@market/server-kit';

/** The batching defaults (ADR 0058), also for in-process test stacks that build only the common config. */
export const DEFAULT_BID_BATCH = { BID_BATCH_MAX: 100, BID_QUEUE_MAX: 1_000, BID_BATCH_MAX_LOCK_MS: 100 };

/** Variables the bidding service reads; parsed once at start. */
export const biddingEnv = {
  ...serviceEnv,
  // How often each replica closes sales whose close job was lost, and rejects lapsed pending bids.
  AUCTION_SWEEP_MS: z.coerce.number().int().min(200).max(3_600_000).default(30_000),
  // Bids of one listing decided together under one row lock (ADR 0058): the most one batch takes,
  BID_BATCH_MAX: z.coerce.number().int().min(1).max(1_000).default(DEFAULT_BID_BATCH.BID_BATCH_MAX),
  // the most that may wait per listing in this process (one more is a 503 with Retry-After),
  BID_QUEUE_MAX: z.coerce.number().int().min(1).max(100_000).default(DEFAULT_BID_BATCH.BID_QUEUE_MAX),
  // and how long a batch may hold the lock before it takes and decides no more (the rest go to the next batch).
  BID_BATCH_MAX_LOCK_MS: z.coerce.number().int().min(1).max(1_000).default(DEFAULT_BID_BATCH.BID_BATCH_MAX_LOCK_MS),
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
  return {
    ...config,
    AUCTION_SWEEP_MS: config.AUCTION_SWEEP_MS ?? DEFAULT_AUCTION_SWEEP_MS,
    BID_BATCH_MAX: config.BID_BATCH_MAX ?? DEFAULT_BID_BATCH.BID_BATCH_MAX,
    BID_QUEUE_MAX: config.BID_QUEUE_MAX ?? DEFAULT_BID_BATCH.BID_QUEUE_MAX,
    BID_BATCH_MAX_LOCK_MS: config.BID_BATCH_MAX_LOCK_MS ?? DEFAULT_BID_BATCH.BID_BATCH_MAX_LOCK_MS,
  };
}
