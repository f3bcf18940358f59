import { isIP } from 'node:net';
import { z } from 'zod';
import { ConfigError } from '../config/env';

const list = (check: (item: string) => boolean, message: string) =>
  z
    .string()
    .transform((value) => value.split(',').map((item) => item.trim()).filter(Boolean))
    .refine((items) => items.every(check), message)
    .optional();

/**
 * Variables of the ownership-proof lookups (ADR 0040), read by listings-service and billing-service. Only the timeout is
 * for production; the resolver, scheme, port and allowed addresses let tests point the lookups at local servers and are
 * refused with NODE_ENV=production.
 */
export const domainProofEnv = {
  DOMAIN_PROOF_TIMEOUT_MS: z.coerce.number().int().min(200).max(10_000).default(3_000),
  DOMAIN_PROOF_DNS_SERVERS: list((s) => /^[\d.]+(:\d+)?$|^\[[0-9a-f:]+\](:\d+)?$/i.test(s), 'comma-separated addresses, each ip or ip:port'),
  DOMAIN_PROOF_HTTP_SCHEME: z.enum(['https', 'http']).default('https'),
  DOMAIN_PROOF_HTTP_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  DOMAIN_PROOF_ALLOW_ADDRESSES: list((s) => isIP(s) !== 0, 'comma-separated IP addresses'),
  NODE_ENV: z.string().default('development'),
};
export type DomainProofConfig = z.infer<z.ZodObject<typeof domainProofEnv>>;

/** How the production adapter looks: the real resolver, https on 443, public addresses only, 3 s. */
export interface DomainProofSettings {
  timeoutMs: number;
  dnsServers: string[] | null;
  scheme: 'https' | 'http';
  port: number | null;
  allowAddresses: string[];
}

/** Nest token of the lookups' deadline, which the checker enforces over both lookups. */
export const DOMAIN_PROOF_TIMEOUT = Symbol('DOMAIN_PROOF_TIMEOUT');
export interface DomainProofTimeout {
  ms: number;
}

/** The adapter's settings from config (defaults for a config without them); test-only values refused in production. */
export function domainProofSettings(config: Partial<DomainProofConfig>): DomainProofSettings {
  const settings: DomainProofSettings = {
    timeoutMs: config.DOMAIN_PROOF_TIMEOUT_MS ?? 3_000,
    dnsServers: config.DOMAIN_PROOF_DNS_SERVERS?.length ? config.DOMAIN_PROOF_DNS_SERVERS : null,
    scheme: config.DOMAIN_PROOF_HTTP_SCHEME ?? 'https',
    port: config.DOMAIN_PROOF_HTTP_PORT ?? null,
    allowAddresses: config.DOMAIN_PROOF_ALLOW_ADDRESSES ?? [],
  };
  if (config.NODE_ENV === 'production') {
    const testOnly: Array<[string, boolean]> = [
      ['DOMAIN_PROOF_DNS_SERVERS', settings.dnsServers !== null],
      ['DOMAIN_PROOF_HTTP_SCHEME', settings.scheme !== 'https'],
      ['DOMAIN_PROOF_HTTP_PORT', settings.port !== null],
      ['DOMAIN_PROOF_ALLOW_ADDRESSES', settings.allowAddresses.length > 0],
    ];
    const set = testOnly.find(([, on]) => on);
    if (set) throw new ConfigError(set[0], 'is for tests only and must not be set when NODE_ENV=production');
  }
  return settings;
}
