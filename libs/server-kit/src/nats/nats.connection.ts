import { connect, type ConnectionOptions, type NatsConnection } from 'nats';
import { ConfigError } from '../config/env';
import { natsTarget } from './nats-target';
import { coalesceWrites } from './write-coalescing';

// What Node's TLS says when the server's certificate is not one this process can believe, or the CA file is unreadable.
const TLS_REFUSALS = /certificate|self[- ]signed|unable to verify|altname|ENOENT|EACCES|PEM|wrong version number/i;

/**
 * Connects to NATS as NATS_URL's user and keeps reconnecting for as long as the process lives. A server not up yet is
 * waited for; a TLS server whose certificate this process cannot believe (another CA, another name, no CA file) stops
 * the start with one line naming NATS_URL: retrying could never succeed (ADR 0066).
 */
export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  const options: ConnectionOptions = { ...natsTarget(url), name, maxReconnectAttempts: -1, reconnectTimeWait: 500 };
  let nc: NatsConnection;
  try {
    nc = await connect(options);
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    const cause = ((error as { cause?: Error })?.cause?.message ?? '') + ' ' + message;
    if (options.tls && TLS_REFUSALS.test(cause)) throw new ConfigError('NATS_URL', `its server's TLS certificate is not believed (${cause.trim().slice(0, 200)}); check the CA its ca= parameter names`);
    nc = await connect({ ...options, waitOnFirstConnect: true });
  }
  return coalesceWrites(nc);
}
