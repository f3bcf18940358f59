import type { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { connect } from 'nats';
import { createServiceApp, parseEnvOrThrow, serviceEnv, runWithRequestId } from '@market/server-kit';
import { buildUser, busEnvOf, closeAll, createTestDatabase, deleteStream, eventually, isolatedEnv, publishSignedEvent, type TestDatabase } from '@market/server-kit/testing';
import type { EventEnvelope } from '@market/contracts';
import { authEnv } from '../../../auth-service/src/auth.config';
import { authAppModule } from '../../../auth-service/src/app.module';
import { AuthService } from '../../../auth-service/src/auth/auth.service';
import { adminAppModule } from '../../../admin-service/src/app.module';
import { notificationsEnv } from '../../../notifications-service/src/notifications.config';
import { notificationsAppModule } from '../../../notifications-service/src/app.module';
import { EmailsRepository } from '../../../notifications-service/src/emails/emails.repository';
import { EmailQueue } from '../../../notifications-service/src/emails/email.queue';
import { Mailer } from '../../../notifications-service/src/emails/mailer';
import { emailQueueIdle } from '../support/email-jobs';

describe('account events through the bus to emails', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let auth: INestApplication;
  let notifications: INestApplication;
  // The mailer reads the SMTP settings from the admin service and never mails from built-in defaults.
  let admin: INestApplication;

  beforeAll(async () => {
    db = await createTestDatabase('notify');
    env = isolatedEnv(db.url);
    const authConfig = parseEnvOrThrow(authEnv, busEnvOf(env, 'auth-service'));
    auth = await createServiceApp({ service: 'auth-service', module: authAppModule(authConfig), config: authConfig, defaultHealthPort: 0, healthPort: 0 });
    const adminConfig = parseEnvOrThrow(serviceEnv, busEnvOf(env, 'admin-service'));
    admin = await createServiceApp({ service: 'admin-service', module: adminAppModule(adminConfig), config: adminConfig, defaultHealthPort: 0, healthPort: 0 });
    const config = parseEnvOrThrow(notificationsEnv, { ...busEnvOf(env, 'notifications-service'), PUBLIC_URL: 'https://market.example' });
    notifications = await createServiceApp({ service: 'notifications-service', module: notificationsAppModule(config), config, defaultHealthPort: 0, healthPort: 0 });
  });

  afterAll(async () => {
    await closeAll(auth, notifications, admin);
    await deleteStream(env.NATS_URL, env.EVENTS_STREAM);
    await db?.drop();
  });

  it('sends one welcome email per registration, with links from PUBLIC_URL, logged under the request id', async () => {
    const user = buildUser();
    const registered = await runWithRequestId('req-welcome-0001', () => auth.get(AuthService).register(user));
    const emails = notifications.get(EmailsRepository);
    const sent = await eventually(async () => {
      const rows = (await emails.sentTo(user.email)).filter((row) => row.kind === 'welcome');
      expect(rows).toHaveLength(1);
      return rows[0];
    }, 15_000);
    expect(sent).toMatchObject({ kind: 'welcome', subject: 'Welcome to Site Market', transport: 'log' });
    const [stored] = await notifications.get(DataSource).query('SELECT text_body, html_body, request_id FROM emails WHERE job_id = $1', [sent.job_id]);
    expect(stored.text_body).toContain(`Hi ${user.username}`);
    expect(stored.text_body).toContain('https://market.example/browse');
    expect(stored.html_body).toContain('href="https://market.example/sell"');
    expect(stored.request_id).toBe('req-welcome-0001');

    // The same event delivered again (another message id, as after a crash) sends nothing more.
    const [outbox] = await auth.get(DataSource).query("SELECT id, payload FROM outbox WHERE payload->>'user_id' = $1", [registered.user.id]);
    const nc = await connect({ servers: env.NATS_URL });
    const envelope: EventEnvelope<'user.registered'> = {
      id: outbox.id,
      name: 'user.registered',
      occurred_at: new Date().toISOString(),
      request_id: null,
      payload: outbox.payload,
    };
    await publishSignedEvent(nc, env, envelope, { msgID: randomUUID() });
    await nc.close();
    // A later registration is the marker: the consumer handles user.registered in stream order, so once its welcome is
    // recorded and the email queue is idle, the copy ahead of it was handled and anything it queued was sent.
    const marker = buildUser();
    await auth.get(AuthService).register(marker);
    await eventually(async () => expect((await emails.sentTo(marker.email)).filter((row) => row.kind === 'welcome')).toHaveLength(1), 15_000);
    await emailQueueIdle(env);
    const welcomes = (await emails.sentTo(user.email)).filter((row) => row.kind === 'welcome');
    expect(welcomes).toHaveLength(1);
  });

  it('never sends a job again once its email is recorded (a retry after the send)', async () => {
    const queue = notifications.get(EmailQueue);
    const send = jest.spyOn(notifications.get(Mailer), 'send');
    try {
      const [sent, fresh] = [buildUser(), buildUser()];
      const key = `dup-${randomUUID()}`;
      await notifications.get(DataSource).query(
        `INSERT INTO emails (job_id, kind, to_address, subject, text_body, html_body, transport) VALUES ($1, 'welcome', $2, 'Welcome to Site Market', '', '', 'log')`,
        [key, sent.email],
      );
      await queue.enqueue(key, { kind: 'welcome', to: sent.email, username: sent.username });
      await queue.enqueue(`fresh-${randomUUID()}`, { kind: 'welcome', to: fresh.email, username: fresh.username });
      const emails = notifications.get(EmailsRepository);
      await eventually(async () => expect(await emails.sentTo(fresh.email)).toHaveLength(1), 15_000);
      await eventually(async () => expect(await queue.jobState(key)).toBe('completed'), 15_000);
      expect(send.mock.calls.map(([to]) => to)).toEqual([fresh.email]);
    } finally {
      send.mockRestore();
    }
  });

  it('refuses an email at once while Redis is away, so the event is retried instead of waiting', async () => {
    const config = parseEnvOrThrow(notificationsEnv, { ...busEnvOf(env, 'notifications-service'), REDIS_URL: 'redis://127.0.0.1:1' });
    const offline = new EmailQueue(null as never, config, config, null as never, null as never, null as never, null as never);
    const started = Date.now();
    await expect(offline.enqueue('offline-1', { kind: 'welcome', to: 'a@example.com', username: 'a' })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(3000);
    await offline.onApplicationShutdown();
  });
});
