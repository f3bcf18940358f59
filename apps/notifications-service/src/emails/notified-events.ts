import type { Logger } from '@nestjs/common';
import type { EventEnvelope, EventName, EventPayloads } from '@market/contracts';
import type { EventConsumers } from '@market/server-kit';

/** Events older than this are not mailed: a consumer catching up after an outage should not send stale notices. */
export const MAX_EVENT_AGE_MS = 24 * 3600 * 1000;

/**
 * Why an event must be acknowledged without an email (too old, or missing a field the email needs, e.g. an event
 * written before the field existed), or null when it can be mailed. `timely: false` is for mail that is never stale.
 */
export function unmailableReason(event: EventEnvelope, required: readonly string[], now: Date = new Date(), timely = true): string | null {
  const occurred = Date.parse(event.occurred_at);
  if (timely && !Number.isFinite(occurred)) return 'it has no valid time';
  if (timely && now.getTime() - occurred > MAX_EVENT_AGE_MS) return 'it is older than 24 hours';
  const payload = event.payload as unknown as Record<string, unknown>;
  const missing = required.filter((key) => payload[key] === undefined);
  return missing.length > 0 ? `it lacks ${missing.join(', ')}` : null;
}

/** Subscribes an email handler behind the shared guard: a stale or incomplete event is acknowledged without an email. */
export function subscribeMailable<N extends EventName>(
  consumers: EventConsumers,
  logger: Logger,
  name: N,
  required: readonly (keyof EventPayloads[N] & string)[],
  handler: (event: EventEnvelope<N>) => Promise<void>,
  options = { timely: true },
) {
  return consumers.subscribe(name, async (event) => {
    const reason = unmailableReason(event, required, new Date(), options.timely);
    if (reason) {
      logger.warn(`No email for ${name} ${event.id}: ${reason}`);
      return;
    }
    await handler(event);
  });
}
