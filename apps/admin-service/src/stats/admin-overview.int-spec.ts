import { randomBytes, randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { deadLetterSubject, RPC, type Actor } from '@market/contracts';
import { ensureEventStream, type ServiceRpc } from '@market/server-kit';
import { deleteStream } from '@market/server-kit/testing';
import { AdminOverviewService } from './admin-overview.service';

describe('admin overview dead-letter count (real JetStream)', () => {
  const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const tag = randomBytes(4).toString('hex');
  const config = { EVENTS_STREAM: `IT_ADMIN_DLQ_${tag}`, EVENTS_PREFIX: `it_admin_dlq_${tag}` };
  const ADMIN: Actor = { user_id: randomUUID(), role: 'admin' };
  // The other services' counts, as they would answer.
  const rpc = {
    call: async (definition: { subject: string }) => {
      if (definition.subject === RPC.auth.stats.subject) return { total_users: 3 };
      if (definition.subject === RPC.listings.stats.subject) return { total_listings: 2, active_listings: 1 };
      return { total_transactions: 1 };
    },
  } as unknown as ServiceRpc;
  let nc: NatsConnection;

  beforeAll(async () => {
    nc = await connect({ servers: natsUrl });
    await ensureEventStream(nc, { stream: config.EVENTS_STREAM, prefix: config.EVENTS_PREFIX });
  });

  afterAll(async () => {
    await nc?.close();
    await deleteStream(natsUrl, config.EVENTS_STREAM);
  });

  it('counts the messages on every consumer dead-letter subject, and nothing else of the stream', async () => {
    const overview = new AdminOverviewService(rpc, nc, config);
    expect(await overview.stats(ADMIN)).toEqual({ total_users: 3, total_listings: 2, active_listings: 1, total_transactions: 1, dead_letters: 0 });

    const js = nc.jetstream();
    await js.publish(deadLetterSubject(config.EVENTS_PREFIX, 'billing-service'), new TextEncoder().encode('{}'));
    await js.publish(deadLetterSubject(config.EVENTS_PREFIX, 'billing-service'), new TextEncoder().encode('{}'));
    await js.publish(deadLetterSubject(config.EVENTS_PREFIX, 'notifications-service'), new TextEncoder().encode('{}'));
    await js.publish(`${config.EVENTS_PREFIX}.user.registered`, new TextEncoder().encode('{}'));

    expect((await overview.stats(ADMIN)).dead_letters).toBe(3);
  });

  it('still answers the other counts when the stream cannot be read', async () => {
    const overview = new AdminOverviewService(rpc, nc, { ...config, EVENTS_STREAM: `IT_MISSING_${tag}` });
    expect(await overview.stats(ADMIN)).toMatchObject({ total_users: 3, dead_letters: null });
  });

  it('refuses a member', async () => {
    const overview = new AdminOverviewService(rpc, nc, config);
    await expect(overview.stats({ user_id: randomUUID(), role: 'regular' })).rejects.toThrow(/Admin access required/);
  });
});
