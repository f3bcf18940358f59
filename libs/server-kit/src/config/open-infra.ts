import { Redis as IORedis } from 'ioredis';
import { connect } from 'nats';
import { natsTarget } from '../nats/nats-target';
import { ConfigError } from './env';

const PROBE_TIMEOUT_MS = 2_000;

/** True when the NATS server behind `url` takes a client with no credentials at all; false when it refuses or is away. */
export async function natsIsOpen(url: string): Promise<boolean> {
  const { servers, tls } = natsTarget(url);
  try {
    const nc = await connect({ servers, tls, reconnect: false, timeout: PROBE_TIMEOUT_MS, name: 'open-infra-probe' });
    await nc.close();
    return true;
  } catch {
    return false;
  }
}

/**
 * True when the Redis server behind `url` lets a client that gives no credentials read keys (its default user has no
 * password and may use data commands). A default user kept for PING alone (health checks) is not open.
 */
export async function redisIsOpen(url: string): Promise<boolean> {
  const parsed = new URL(url);
  const probe = new IORedis({
    // An IPv6 literal comes bracketed in a URL ([::1]); the socket wants it bare.
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(parsed.port || 6379),
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: PROBE_TIMEOUT_MS,
    commandTimeout: PROBE_TIMEOUT_MS,
    enableOfflineQueue: false,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return typeof (await probe.exists('market:open-infra-probe')) === 'number';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/**
 * Stops a process whose NATS or Redis lets anyone in without credentials (D25): on such a server anyone on the network
 * could read and write what the bus and the sessions carry. Tests (NODE_ENV=test) and ALLOW_OPEN_INFRA=true run there
 * anyway; `npm start` starts servers with credentials of its own instead (ADR 0065).
 */
export async function refuseOpenInfra(config: { NATS_URL: string; REDIS_URL: string; ALLOW_OPEN_INFRA: boolean }, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (env.NODE_ENV === 'test' || config.ALLOW_OPEN_INFRA) return;
  const [nats, redis] = await Promise.all([natsIsOpen(config.NATS_URL), redisIsOpen(config.REDIS_URL)]);
  const fix = 'give it users and passwords (npm start starts servers of its own that have them), or set ALLOW_OPEN_INFRA=true to run on it anyway';
  if (nats) throw new ConfigError('NATS_URL', `its server lets anyone in without credentials; ${fix}`);
  if (redis) throw new ConfigError('REDIS_URL', `its server lets anyone in without credentials; ${fix}`);
}
