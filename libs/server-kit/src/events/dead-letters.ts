import type { NatsConnection } from 'nats';
import { deadLetterSubject } from '@market/contracts';
import type { EventStreamOptions } from './jetstream';

/**
 * Dead letters waiting in the events stream, by consumer (ADR 0046): the messages on each `<prefix>.dead_letter.<consumer>`
 * subject, read from JetStream's stream info with a subject filter. They stay until the stream's max age.
 */
export async function deadLetterCounts(nc: NatsConnection, stream: EventStreamOptions): Promise<Record<string, number>> {
  const jsm = await nc.jetstreamManager();
  const filter = deadLetterSubject(stream.prefix, '>');
  const info = await jsm.streams.info(stream.stream, { subjects_filter: filter });
  const head = deadLetterSubject(stream.prefix, '');
  const counts: Record<string, number> = {};
  for (const [subject, count] of Object.entries(info.state.subjects ?? {})) counts[subject.slice(head.length)] = count;
  return counts;
}

/** How many dead letters the events stream holds, all consumers together (the DLQ gauge and the admin overview). */
export async function countDeadLetters(nc: NatsConnection, stream: EventStreamOptions): Promise<number> {
  return Object.values(await deadLetterCounts(nc, stream)).reduce((sum, count) => sum + count, 0);
}
