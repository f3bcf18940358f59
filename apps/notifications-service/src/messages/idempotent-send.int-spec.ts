import { randomUUID } from 'node:crypto';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import { MESSAGE_SEND_LIMITS, RPC, type Actor } from '@market/contracts';
import { AppError, parseEnvOrThrow } from '@market/server-kit';
import { respondSigned, startServiceUnderTest, testCaller, type ServiceUnderTest, openRequest } from '@market/server-kit/testing';
import { notificationsAppModule } from '../app.module';
import { notificationsEnv } from '../notifications.config';

const codec = JSONCodec<{ id: string; data: { data: { user_ids: string[] } } }>();

describe('sending a message: a retry is sent once (Idempotency-Key, ADR 0047), a sender is paced (ADR 0064)', () => {
  let svc: ServiceUnderTest;
  let ds: DataSource;
  let auth: NatsConnection;

  const sentBy = async (senderId: string) =>
    ((await ds.query('SELECT subject FROM messages WHERE sender_id = $1 ORDER BY created_at', [senderId])) as { subject: string }[]).map((row) => row.subject);
  const send = (sender: Actor, receiverId: string, subject: string, key: string) =>
    svc.rpc.call(RPC.notifications.sendMessage, { receiver_id: receiverId, subject, content: 'Is it still for sale?' }, sender, { idempotency: { key } });

  beforeAll(async () => {
    svc = await startServiceUnderTest('notifications-service', (env) => {
      const config = parseEnvOrThrow(notificationsEnv, env);
      return { module: notificationsAppModule(config), config };
    });
    ds = svc.app.get(DataSource);
    // Stands in for auth-service: every asked-for user is a live member.
    auth = await connect({ servers: svc.env.NATS_URL });
    auth.subscribe(`${svc.env.NATS_SUBJECT_PREFIX}${RPC.auth.contacts.subject}`, {
      callback: (_error, message) => {
        const packet = codec.decode(openRequest(svc.env, 'auth-service', message));
        const contacts = packet.data.data.user_ids.map((id) => ({ id, username: `user_${id.slice(0, 8)}`, email: `${id}@example.com`, status: 'active' }));
        respondSigned(svc.env, 'auth-service', message, { id: packet.id, response: { contacts }, isDisposed: true });
      },
    });
    await auth.flush();
  });
  afterAll(async () => {
    await auth?.close();
    await svc?.stop();
  });

  it('the same key twice stores one message and answers the first result; another text under it is 422', async () => {
    const sender = await testCaller(svc.env, { role: 'regular' });
    const receiver = randomUUID();
    const key = randomUUID();
    const first = await send(sender, receiver, 'Hello', key);
    expect(await send(sender, receiver, 'Hello', key)).toEqual(first);
    expect(await sentBy(sender.user_id)).toEqual(['Hello']);
    const refused = await send(sender, receiver, 'Hello again', key).catch((error: unknown) => error);
    expect((refused as AppError).status).toBe(422);
    expect(await sentBy(sender.user_id)).toEqual(['Hello']);
  });

  it('concurrent duplicates store one message', async () => {
    const sender = await testCaller(svc.env, { role: 'regular' });
    const receiver = randomUUID();
    const key = randomUUID();
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () =>
        send(sender, receiver, 'Once only', key).then(
          () => 'sent',
          (error: unknown) => (error as AppError).status,
        ),
      ),
    );
    expect(await sentBy(sender.user_id)).toEqual(['Once only']);
    expect(outcomes).toContain('sent');
    for (const outcome of outcomes) expect(['sent', 409]).toContain(outcome);
  });

  it('answers a sender past both the hour\'s and the day\'s limit with the longer wait, and stores nothing', async () => {
    const [hourly, daily] = MESSAGE_SEND_LIMITS;
    const sender = await testCaller(svc.env, { role: 'regular' });
    const receiver = randomUUID();
    // The day's earlier messages, the oldest 20 hours and 80 seconds ago; then the hour's, the oldest about 30 minutes ago.
    const earlier = daily.max - hourly.max;
    await ds.query(
      `INSERT INTO messages (id, sender_id, receiver_id, subject, content, created_at)
       SELECT gen_random_uuid(), $1, $2, 'Earlier ' || i, 'x',
              now() - CASE WHEN i <= $3 THEN interval '20 hours' + (i || ' seconds')::interval ELSE interval '30 minutes' + (($4 - i) || ' seconds')::interval END
         FROM generate_series(1, $4) AS i`,
      [sender.user_id, receiver, earlier, daily.max],
    );
    const refused = (await send(sender, receiver, 'One too many', randomUUID()).catch((error: unknown) => error)) as AppError;
    expect(refused.status).toBe(429);
    // Waiting out the hour would still find the day full: the day's window answers (its oldest leaves in about 4 h).
    expect(refused.rateLimit).toMatchObject({ policy: 'messages-1440m', quota: daily.max, window_seconds: 86_400, remaining: 0 });
    expect(refused.rateLimit!.reset_seconds).toBeGreaterThan(4 * 3600 - 120);
    expect(refused.rateLimit!.reset_seconds).toBeLessThanOrEqual(4 * 3600);
    expect(refused.retryAfter).toBe(refused.rateLimit!.reset_seconds);
    expect(await sentBy(sender.user_id)).not.toContain('One too many');
  });
});
