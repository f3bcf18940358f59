import { connect, type NatsConnection } from 'nats';
import { natsTarget } from './nats-target';
import { coalesceWrites } from './write-coalescing';

/** Connects to NATS as NATS_URL's user and keeps reconnecting for as long as the process lives. */
export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  const nc = await connect({
    ...natsTarget(url),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    waitOnFirstConnect: true,
  });
  return coalesceWrites(nc);
}
