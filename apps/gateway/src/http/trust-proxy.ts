import type { IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import { z } from 'zod';

/**
 * TRUST_PROXY: how many proxies in front of the gateway add to X-Forwarded-For (a cloud load balancer and the ingress
 * are 2). 0 trusts none; `true` and `false`, its old values, mean 1 and 0 (ADR 0054).
 */
export const trustProxySchema = z
  .string()
  .default('0')
  .transform((value, ctx) => {
    if (value === 'true') return 1;
    if (value === 'false') return 0;
    const hops = /^\d+$/.test(value) ? Number(value) : NaN;
    if (Number.isSafeInteger(hops)) return hops;
    ctx.addIssue({ code: 'custom', message: 'must be the number of trusted proxy hops in front of the gateway (0, 1, 2, …; true and false mean 1 and 0)' });
    return z.NEVER;
  });

type TrustFn = (address: string, hop: number) => boolean;
interface ProxiedRequest {
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string };
}

// The proxy-addr that Express's req.ip calls, loaded from Express's own place, so the live feed's handshake (which
// Express never sees) reads X-Forwarded-For exactly as every other request is read (ADR 0054).
const proxyAddr = createRequire(require.resolve('express'))('proxy-addr') as (request: ProxiedRequest, trust: TrustFn) => string;

/** Express's trust for `trust proxy` = hops: the socket's peer and the hops - 1 addresses it forwarded for are proxies. */
export function trustHops(hops: number): TrustFn {
  return (_address, hop) => hop < hops;
}

/**
 * The client's address as Express's req.ip gives it with `trust proxy` = hops: the X-Forwarded-For entry `hops` back
 * from the socket (the leftmost when there are fewer), the socket's peer with 0. Entries a client wrote before the
 * first trusted proxy are never reached.
 */
export function clientAddress(request: ProxiedRequest, hops: number): string {
  return proxyAddr(request, trustHops(hops)) ?? '';
}
