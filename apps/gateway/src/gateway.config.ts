import { resolve } from 'node:path';
import { z } from 'zod';
import { commonEnv, parseEnv, portSchema } from '@market/server-kit';

/** Variables the gateway reads; parsed once at start. */
export const gatewayEnv = {
  ...commonEnv,
  PORT: portSchema.default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters'),
  RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  WEB_DIST: z.string().min(1).default(resolve(__dirname, '../../web/dist')),
  // Multiplies every rate limit; 0 turns them off (benchmarks only).
  RATE_LIMIT_SCALE: z.coerce.number().min(0).max(1000).default(1),
  TRUST_PROXY: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
};
export type GatewayConfig = z.infer<z.ZodObject<typeof gatewayEnv>>;
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');

/** Reads the gateway configuration, exiting with one line on a bad value. */
export function loadGatewayConfig(): GatewayConfig {
  return parseEnv(gatewayEnv);
}
