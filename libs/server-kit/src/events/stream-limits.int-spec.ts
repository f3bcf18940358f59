import { randomBytes } from 'node:crypto';
import { DiscardPolicy, nanos, type NatsConnection } from 'nats';
import { deleteStream } from '../testing';
import { connectNats } from '../nats/nats.connection';
import { streamLimits } from '../config/growth-env';
import { ensureEventStream } from './jetstream';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('events stream limits (real JetStream)', () => {
  const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const tag = randomBytes(4).toString('hex');
  const stream = { stream: `IT_LIMITS_${tag}`, prefix: `it_limits_${tag}` };
  let nc: NatsConnection;
  const config = async () => (await (await nc.jetstreamManager()).streams.info(stream.stream)).config;

  beforeAll(async () => {
    nc = await connectNats(natsUrl, 'limits-under-test');
  });

  afterAll(async () => {
    await nc?.close();
    await deleteStream(natsUrl, stream.stream);
  });

  it('creates the stream with the configured limits, and only the owner updates an existing one', async () => {
    await ensureEventStream(nc, stream, streamLimits({ EVENTS_MAX_AGE_DAYS: 3, EVENTS_MAX_BYTES: 50_000_000 }));
    expect(await config()).toMatchObject({ max_age: nanos(3 * DAY_MS), max_bytes: 50_000_000, num_replicas: 1, discard: DiscardPolicy.New });

    const changed = streamLimits({ EVENTS_MAX_AGE_DAYS: 5, EVENTS_MAX_BYTES: 80_000_000 });
    await ensureEventStream(nc, stream, changed);
    expect((await config()).max_age).toBe(nanos(3 * DAY_MS));

    await ensureEventStream(nc, stream, changed, true);
    expect(await config()).toMatchObject({ max_age: nanos(5 * DAY_MS), max_bytes: 80_000_000, subjects: [`${stream.prefix}.>`] });
  });
});
