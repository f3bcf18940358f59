import { connect, type NatsConnection } from 'nats';

/** Connects to NATS and keeps reconnecting for as long as the process lives. */
export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  return connect({
    servers: url.split(','),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    waitOnFirstConnect: true,
  });
}
