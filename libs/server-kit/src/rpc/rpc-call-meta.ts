import type { RpcMeta } from '@market/contracts';
import type { RpcCallOptions } from './rpc-client';
import { currentDeadline } from './rpc-deadline';

/**
 * The envelope fields a caller adds beyond its identity (ADR 0047): the moment it stops waiting, so a service drops
 * work nobody will read, and a write's Idempotency-Key with what a retry must match.
 */
export function callMeta(timeoutMs: number, options: RpcCallOptions): Pick<RpcMeta, 'deadline' | 'idempotency_key' | 'idempotency_fingerprint'> {
  const meta: Pick<RpcMeta, 'deadline' | 'idempotency_key' | 'idempotency_fingerprint'> = {
    // A service asking another on a caller's behalf passes on the earlier of the two deadlines.
    deadline: Math.min(Date.now() + timeoutMs, currentDeadline() ?? Number.POSITIVE_INFINITY),
  };
  if (options.idempotency) {
    meta.idempotency_key = options.idempotency.key;
    if (options.idempotency.fingerprint) meta.idempotency_fingerprint = options.idempotency.fingerprint;
  }
  return meta;
}
