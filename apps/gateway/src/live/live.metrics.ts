import { collectedGauge, counter } from '@market/server-kit';

/** Frames written to live sockets (one per message per socket). */
export const liveFramesSent = () => counter({ name: 'market_live_frames_sent_total', help: 'Frames the live feed wrote to websockets' });

/** Sockets closed because they fell too far behind (slow consumers). */
export const liveSlowConsumersDropped = () =>
  counter({ name: 'market_live_slow_consumers_dropped_total', help: 'Live sockets closed because their unsent backlog passed the limit' });

/** Reports the open live sockets of a hub in market_live_sockets on each scrape (ADR 0048); returns the remover. */
export function watchLiveSockets(hub: { readonly size: number }): () => void {
  return collectedGauge({ name: 'market_live_sockets', help: 'Live feed websockets open on this gateway' }, () => [{ labels: {}, value: hub.size }]);
}
