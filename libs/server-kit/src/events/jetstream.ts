import { RetentionPolicy, StorageType, nanos, type NatsConnection } from 'nats';

export interface EventStreamOptions {
  stream: string;
  prefix: string;
}

const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;
const MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

/** Makes sure the events stream exists; safe to call from every process at start. */
export async function ensureEventStream(nc: NatsConnection, options: EventStreamOptions): Promise<void> {
  const jsm = await nc.jetstreamManager();
  try {
    await jsm.streams.info(options.stream);
  } catch {
    try {
      await jsm.streams.add({
        name: options.stream,
        subjects: [`${options.prefix}.>`],
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        // The relay republishes after a crash between publish and mark; JetStream drops the copy by message id.
        duplicate_window: nanos(DUPLICATE_WINDOW_MS),
        max_age: nanos(MAX_AGE_MS),
      });
    } catch (error) {
      // Another process created it a moment ago.
      await jsm.streams.info(options.stream).catch(() => {
        throw error;
      });
    }
  }
}

/** The JetStream subject an event is published on. */
export function eventSubject(prefix: string, name: string): string {
  return `${prefix}.${name}`;
}
