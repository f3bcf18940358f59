import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError, commonEnv, parseEnv, portSchema, secretSchema, urlSchema } from '@market/server-kit';
import { trustProxySchema } from './http/trust-proxy';
import { parseOriginList } from './live/live-handshake';

/** Variables the gateway reads; parsed once at start. */
export const gatewayEnv = {
  ...commonEnv,
  PORT: portSchema.default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  // Prometheus scrapes GET /metrics here, a port apart from the public API's (ADR 0048); 0 turns it off.
  METRICS_PORT: portSchema.default(9464),
  RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  WEB_DIST: z.string().min(1).default(resolve(__dirname, '../../web/dist')),
  // Public pages are rendered here and hydrated in the browser ('server'), or left to the browser ('browser'); the
  // renderer is apps/web's server bundle, beside WEB_DIST unless named (ADR 0072).
  WEB_RENDERING: z.enum(['server', 'browser']).default('server'),
  WEB_SERVER_BUNDLE: z.string().min(1).optional(),
  // A page not rendered within this long is served as the browser's shell instead (counted, never a 5xx).
  PAGE_RENDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
  // Pages one gateway renders at once; beyond it a page is the browser's shell (counted), so a burst of new addresses
  // cannot take the gateway's CPU.
  PAGE_RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  // How long a rendered public page is kept; any listing event drops them all sooner. 0 keeps none.
  PAGE_CACHE_MS: z.coerce.number().int().min(0).max(300_000).default(10_000),
  // Multiplies every rate limit; 0 turns them off (benchmarks only).
  RATE_LIMIT_SCALE: z.coerce.number().min(0).max(1000).default(1),
  // How long each gateway answers a repeated browse page from memory; listing events clear it sooner. 0 turns it off.
  BROWSE_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  // A browse page the listings service has not sent within this long is answered from its last good copy (ADR 0050).
  BROWSE_STALE_AFTER_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  // Proxies in front of the gateway whose X-Forwarded-For entries are believed, as a hop count (ADR 0054).
  TRUST_PROXY: trustProxySchema,
  // Screenshots go to S3/MinIO when an endpoint is set, else to files under UPLOADS_DIR (see ADR 0012).
  S3_ENDPOINT: urlSchema(['http:', 'https:']).optional(),
  S3_ACCESS_KEY: z.string().min(1).optional(),
  // No placeholder, 16+ characters (ADR 0031).
  S3_SECRET_KEY: secretSchema('S3_SECRET_KEY').optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name (3-63 lower-case letters, digits, . and -)')
    .default('screenshots'),
  S3_REGION: z.string().regex(/^[a-z0-9-]+$/, 'lower-case letters, digits and - only').default('us-east-1'),
  UPLOADS_DIR: z.string().min(1).default('data/uploads').transform((dir) => resolve(process.cwd(), dir)),
  // Multipart uploads with files one gateway takes at once (beyond: a quick 503, the server's capacity), and one user
  // (or one anonymous address) may run at once (beyond: a 429 with the RateLimit headers). ADR 0029, ADR 0064.
  UPLOADS_MAX_CONCURRENT: z.coerce.number().int().min(1).max(1000).default(8),
  UPLOADS_MAX_PER_USER: z.coerce.number().int().min(1).max(100).default(4),
  // An upload's body must arrive within UPLOADS_DEADLINE_MS of its start, with no gap of UPLOADS_IDLE_MS without a
  // byte; otherwise it is a 408 and its slot is free at once, so slow senders cannot hold every slot (ADR 0029).
  UPLOADS_DEADLINE_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  UPLOADS_IDLE_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  // Images decoded at once per gateway: each 40-megapixel decode takes hundreds of MB of native memory (ADR 0029).
  UPLOADS_MAX_DECODING: z.coerce.number().int().min(1).max(64).default(2),
  // The site's public address: its origin may open live feed websockets (ADR 0015). Shared with notifications-service.
  PUBLIC_URL: urlSchema(['http:', 'https:']).optional(),
  // Further browser origins (comma-separated, e.g. a dev server) allowed to open live feed websockets; see ADR 0015.
  // Live listing sockets one client address may hold at once (one client must not take every slot).
  WS_MAX_SOCKETS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(100),
  WS_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      try {
        return parseOriginList(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
};
export type GatewayConfig = z.infer<z.ZodObject<typeof gatewayEnv>>;
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');

/** Reads the gateway configuration, exiting with one line on a bad value. */
export function loadGatewayConfig(): GatewayConfig {
  const config = parseEnv(gatewayEnv);
  try {
    checkStorageConfig(config);
    checkPublicUrl(config);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
  return config;
}

/**
 * PUBLIC_URL is the site's absolute origin in canonical links, previews and sitemaps (ADR 0071): an origin only, and
 * required in production (elsewhere http://localhost:PORT stands in). Throws a ConfigError naming it.
 */
export function checkPublicUrl(config: Pick<GatewayConfig, 'PUBLIC_URL'>, nodeEnv = process.env.NODE_ENV): void {
  if (!config.PUBLIC_URL) {
    if (nodeEnv === 'production') throw new ConfigError('PUBLIC_URL', 'is required in production: the absolute origin of canonical links and sitemaps (e.g. https://market.example)');
    return;
  }
  const url = new URL(config.PUBLIC_URL);
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    throw new ConfigError('PUBLIC_URL', `must be an origin only (like ${url.origin}), without a path, query, fragment or credentials`);
  }
}

/** The site's absolute origin: PUBLIC_URL's, else http://localhost:PORT outside production (ADR 0071). */
export function publicOrigin(config: Pick<GatewayConfig, 'PUBLIC_URL' | 'PORT'>): string {
  return config.PUBLIC_URL ? new URL(config.PUBLIC_URL).origin : `http://localhost:${config.PORT}`;
}

/** An S3 endpoint needs both keys; throws a ConfigError naming the missing one. */
export function checkStorageConfig(config: Pick<GatewayConfig, 'S3_ENDPOINT' | 'S3_ACCESS_KEY' | 'S3_SECRET_KEY'>): void {
  if (!config.S3_ENDPOINT) return;
  if (!config.S3_ACCESS_KEY) throw new ConfigError('S3_ACCESS_KEY', 'is required when S3_ENDPOINT is set');
  if (!config.S3_SECRET_KEY) throw new ConfigError('S3_SECRET_KEY', 'is required when S3_ENDPOINT is set');
}
