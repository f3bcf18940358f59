import { DiscardPolicy, RetentionPolicy, StorageType, nanos, type NatsConnection, type StreamConfig } from 'nats';
import { streamLimits, type StreamLimits } from '../config/growth-env';
import { streamConfigChanges } from './stream-limits';

export interface EventStreamOptions {
  stream: string;
  prefix: string;
}

const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

/**
 * Makes sure the events stream exists with the configured limits (ADR 0046); safe to call from every process at start.
 * With `applyLimits` (the one process allowed to update the stream, STREAM_LIMITS_OWNER in contracts), an existing
 * stream whose limits differ from config is updated; JetStream refusing a change (e.g. replicas on a single server)
 * is a start failure that names it.
 */
export async function ensureEventStream(
  nc: NatsConnection,
  options: EventStreamOptions,
  limits: StreamLimits = streamLimits({}),
  applyLimits = false,
): Promise<void> {
  const jsm = await nc.jetstreamManager();
  const wanted: Partial<StreamConfig> = {
    // The relay republishes after a crash between publish and mark; JetStream drops the copy by message id.
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    max_age: nanos(limits.maxAgeMs),
    max_bytes: limits.maxBytes,
    num_replicas: limits.replicas,
    // A full stream refuses new events rather than dropping old ones a consumer may not have read: they wait in
    // the outbox, whose age is alerted on.
    discard: DiscardPolicy.New,
  };
  let existing: StreamConfig | null = null;
  try {
    existing = (await jsm.streams.info(options.stream)).config;
  } catch {
    try {
      await jsm.streams.add({
        name: options.stream,
        subjects: [`${options.prefix}.>`],
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        ...wanted,
      });
      return;
    } catch (error) {
      // Another process created it a moment ago.
      existing = (
        await jsm.streams.info(options.stream).catch(() => {
          throw error;
        })
      ).config;
    }
  }
  if (!applyLimits) return;
  const changes = streamConfigChanges(existing, wanted);
  if (changes === null) return;
  try {
    await jsm.streams.update(options.stream, { ...existing, ...changes });
  } catch (error) {
    throw new Error(`Could not apply the events stream limits (${Object.keys(changes).join(', ')}): ${(error as Error).message}`);
  }
}

/** The JetStream subject an event is published on. */
export function eventSubject(prefix: string, name: string): string {
  return `${prefix}.${name}`;
}
