import { collectedGauge, counter, histogram } from '@market/server-kit';

/** Seconds from an event's occurrence (its signed occurred_at) to its frames leaving this gateway (docs/slo.md). */
export const liveDeliveryDelay = () =>
  histogram({
    name: 'market_live_delivery_delay_seconds',
    help: 'Seconds from a live event occurring (its occurred_at) to its frames being written to the sockets of this gateway',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
  });

/** Frames written to live sockets (one per message per socket). */
export const liveFramesSent = () => counter({ name: 'market_live_frames_sent_total', help: 'Frames the live feed wrote to websockets' });

/** Sockets closed because they fell too far behind (slow consumers). */
export const liveSlowConsumersDropped = () =>
  counter({ name: 'market_live_slow_consumers_dropped_total', help: 'Live sockets closed because their unsent backlog passed the limit' });

/** Reports the open live sockets of a hub in market_live_sockets on each scrape (ADR 0048); returns the remover. */
export function watchLiveSockets(hub: { readonly size: number }): () => void {
  return collectedGauge({ name: 'market_live_sockets', help: 'Live feed websockets open on this gateway' }, () => [{ labels: {}, value: hub.size }]);
}
