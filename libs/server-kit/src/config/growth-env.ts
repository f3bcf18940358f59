import { z } from 'zod';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The events stream's limits and the consumers' delivery limits (ADR 0046); every backend process reads them. */
export const eventLimitsEnv = {
  // How long JetStream keeps an event (days, fractions allowed); processed_events outlives it (see retention).
  EVENTS_MAX_AGE_DAYS: z.coerce.number().positive().max(3650).default(14),
  // The stream's size cap in bytes (-1: none); when full, a publish is refused and the event waits in the outbox.
  EVENTS_MAX_BYTES: z.coerce.number().int().min(-1).default(-1),
  // Copies JetStream keeps of the stream (a cluster's replicas; 1 on a single server).
  EVENTS_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  // Deliveries an event gets before it goes to the consumer's dead-letter subject instead of being retried; 20 with the
  // default delays spans about 13 minutes, so a dependency's short outage (a failover, a deploy) dead-letters nothing.
  EVENTS_MAX_DELIVER: z.coerce.number().int().min(1).max(1000).default(20),
  // A failed event's first retry delay, doubled after the first few to EVENTS_MAX_RETRY_DELAY_MS.
  EVENTS_RETRY_DELAY_MS: z.coerce.number().int().min(10).max(600_000).default(1_000),
  EVENTS_MAX_RETRY_DELAY_MS: z.coerce.number().int().min(10).max(3_600_000).default(60_000),
};

/** How long each service keeps what only grows (ADR 0046); every service reads them, each deletes its own tables. */
export const retentionEnv = {
  // How often the retention job runs (one replica at a time).
  RETENTION_SWEEP_MS: z.coerce.number().int().min(200).max(86_400_000).default(3_600_000),
  // Published outbox rows, days after publication.
  RETENTION_OUTBOX_DAYS: z.coerce.number().positive().max(3650).default(7),
  // processed_events rows live the stream's max age plus this margin (days): a redelivery is always recognised.
  RETENTION_PROCESSED_EVENTS_MARGIN_DAYS: z.coerce.number().min(1).max(3650).default(2),
  // billing-service's provider_events (webhook deduplication), days.
  RETENTION_PROVIDER_EVENTS_DAYS: z.coerce.number().positive().max(36500).default(90),
  // notifications-service's email log (the emails table), days.
  RETENTION_EMAILS_DAYS: z.coerce.number().positive().max(36500).default(90),
};

type EventLimitsConfig = Partial<z.infer<z.ZodObject<typeof eventLimitsEnv>>>;
type RetentionConfig = Partial<z.infer<z.ZodObject<typeof retentionEnv>>>;

/** The events stream's limits from config (defaults for a config built without them, as in-process test stacks do). */
export interface StreamLimits {
  maxAgeMs: number;
  maxBytes: number;
  replicas: number;
}

/** Stream limits from config. */
export function streamLimits(config: EventLimitsConfig): StreamLimits {
  return {
    maxAgeMs: (config.EVENTS_MAX_AGE_DAYS ?? 14) * DAY_MS,
    maxBytes: config.EVENTS_MAX_BYTES ?? -1,
    replicas: config.EVENTS_REPLICAS ?? 1,
  };
}

/** How often an event is delivered and how long a failed one waits. */
export interface ConsumerLimits {
  maxDeliver: number;
  retryDelayMs: number;
  maxRetryDelayMs: number;
}

export const DEFAULT_CONSUMER_LIMITS: ConsumerLimits = { maxDeliver: 20, retryDelayMs: 1_000, maxRetryDelayMs: 60_000 };

/** Consumer limits from config. */
export function consumerLimits(config: EventLimitsConfig): ConsumerLimits {
  return {
    maxDeliver: config.EVENTS_MAX_DELIVER ?? DEFAULT_CONSUMER_LIMITS.maxDeliver,
    retryDelayMs: config.EVENTS_RETRY_DELAY_MS ?? DEFAULT_CONSUMER_LIMITS.retryDelayMs,
    maxRetryDelayMs: config.EVENTS_MAX_RETRY_DELAY_MS ?? DEFAULT_CONSUMER_LIMITS.maxRetryDelayMs,
  };
}

/** Retention periods in milliseconds, from config. */
export interface RetentionPeriods {
  sweepMs: number;
  outboxMs: number;
  processedEventsMs: number;
  providerEventsMs: number;
  emailsMs: number;
}

/** Retention periods from config; processed_events outlive the stream's max age by the margin. */
export function retentionPeriods(config: RetentionConfig & EventLimitsConfig): RetentionPeriods {
  return {
    sweepMs: config.RETENTION_SWEEP_MS ?? 3_600_000,
    outboxMs: (config.RETENTION_OUTBOX_DAYS ?? 7) * DAY_MS,
    processedEventsMs: streamLimits(config).maxAgeMs + (config.RETENTION_PROCESSED_EVENTS_MARGIN_DAYS ?? 2) * DAY_MS,
    providerEventsMs: (config.RETENTION_PROVIDER_EVENTS_DAYS ?? 90) * DAY_MS,
    emailsMs: (config.RETENTION_EMAILS_DAYS ?? 90) * DAY_MS,
  };
}
