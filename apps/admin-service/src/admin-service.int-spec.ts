import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { DEFAULT_SETTINGS, RPC, SETTINGS_CHANGED_SUBJECT, type Actor, type EventEnvelope } from '@market/contracts';
import { AppError, parseEnvOrThrow, serviceEnv } from '@market/server-kit';
import { eventually, publishSignedEvent, startServiceUnderTest, testCaller, type ServiceUnderTest } from '@market/server-kit/testing';
import { adminAppModule } from './app.module';


/** The HTTP status a call was refused with; a failure when it was answered. */
async function refusedWith(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.status;
    throw error;
  }
  throw new Error('the call was answered, not refused');
}

describe('admin-service over NATS, on its own', () => {
  let admin: ServiceUnderTest;
  let nc: NatsConnection;
  // Callers with tokens the service verifies itself (ADR 0030): an admin, a member, and the admin acting as the member.
  let ADMIN: Actor;
  let MEMBER: Actor;
  let IMPERSONATING: Actor;

  beforeAll(async () => {
    admin = await startServiceUnderTest('admin-service', (env) => {
      const config = parseEnvOrThrow(serviceEnv, env);
      return { module: adminAppModule(config), config };
    });
    nc = await connect({ servers: admin.env.NATS_URL });
    ADMIN = await testCaller(admin.env, { role: 'admin' });
    MEMBER = await testCaller(admin.env, { role: 'regular' });
    IMPERSONATING = await testCaller(admin.env, { user_id: MEMBER.user_id, role: 'regular', impersonator_id: ADMIN.user_id });
  });
  afterAll(async () => {
    await nc?.close();
    await admin?.stop();
  });

  it('serves its health and metrics on this machine only unless METRICS_HOST says otherwise', async () => {
    const address = (admin.app.getHttpServer() as import('node:http').Server).address() as import('node:net').AddressInfo;
    expect(address.address).toBe('127.0.0.1');
    expect((await fetch(`http://127.0.0.1:${address.port}/healthz`)).status).toBe(200);
  });

  it('answers the default settings to an admin, with the SMTP password never sent', async () => {
    const settings = await admin.rpc.call(RPC.admin.getSettings, {}, ADMIN);
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, smtp_password: '', smtp_password_set: false });
    expect(await admin.rpc.call(RPC.admin.publicFees, {}, null)).toEqual({ success_fee_percent: 0, verified_email_required: true, inspection_days: 3 });
  });

  it('saves settings for a real admin only, announces the change, and the public fee follows', async () => {
    for (const actor of [MEMBER, IMPERSONATING, null]) {
      expect(await refusedWith(admin.rpc.call(RPC.admin.getSettings, {}, actor))).toBe(actor ? 403 : 401);
      expect(await refusedWith(admin.rpc.call(RPC.admin.updateSettings, { ...DEFAULT_SETTINGS, success_fee: 9 }, actor))).toBe(actor ? 403 : 401);
    }
    expect(await admin.rpc.call(RPC.admin.publicFees, {}, null)).toEqual({ success_fee_percent: 0, verified_email_required: true, inspection_days: 3 });

    const announced = nc.subscribe(`${admin.env.NATS_SUBJECT_PREFIX}${SETTINGS_CHANGED_SUBJECT}`, { max: 1 });
    await nc.flush();
    const saved = await admin.rpc.call(RPC.admin.updateSettings, { ...DEFAULT_SETTINGS, success_fee: 2.55, smtp_password: 'smtp-secret-1' }, ADMIN);
    expect(saved).toMatchObject({ success_fee: 2.55, smtp_password: '', smtp_password_set: true });
    for await (const message of announced) expect(message.subject).toBe(`${admin.env.NATS_SUBJECT_PREFIX}${SETTINGS_CHANGED_SUBJECT}`);
    expect(await admin.rpc.call(RPC.admin.publicFees, {}, null)).toEqual({ success_fee_percent: 2.55, verified_email_required: true, inspection_days: 3 });
    // Services read the whole settings, password included, on their internal subject.
    expect(await admin.rpc.call(RPC.admin.effectiveSettings, {}, null)).toMatchObject({ success_fee: 2.55, smtp_password: 'smtp-secret-1' });
  });

  it('sends the stored SMTP password only to its server: another host, port or username needs it again', async () => {
    await admin.rpc.call(RPC.admin.updateSettings, { ...DEFAULT_SETTINGS, smtp_host: 'mail.example.com', smtp_username: 'market', smtp_password: 'smtp-secret-for-mail' }, ADMIN);
    for (const moved of [{ smtp_host: 'mail.attacker.example' }, { smtp_port: 25 }, { smtp_username: 'someone-else' }]) {
      const status = await refusedWith(admin.rpc.call(RPC.admin.updateSettings, { ...DEFAULT_SETTINGS, smtp_host: 'mail.example.com', smtp_username: 'market', smtp_password: '', ...moved }, ADMIN));
      expect([moved, status]).toEqual([moved, 422]);
    }
    // Same server, empty password: kept. Another server with the password given again: saved.
    await admin.rpc.call(RPC.admin.updateSettings, { ...DEFAULT_SETTINGS, smtp_host: 'mail.example.com', smtp_username: 'market', smtp_password: '', success_fee: 3 }, ADMIN);
    expect(await admin.rpc.call(RPC.admin.effectiveSettings, {}, null)).toMatchObject({ smtp_host: 'mail.example.com', smtp_password: 'smtp-secret-for-mail' });
    await admin.rpc.call(RPC.admin.updateSettings, { ...DEFAULT_SETTINGS, smtp_host: 'smtp.other.example', smtp_username: 'market', smtp_password: 'smtp-secret-for-other' }, ADMIN);
    expect(await admin.rpc.call(RPC.admin.effectiveSettings, {}, null)).toMatchObject({ smtp_host: 'smtp.other.example', smtp_password: 'smtp-secret-for-other' });
    // Clearing the server forgets its password.
    await admin.rpc.call(RPC.admin.updateSettings, { ...DEFAULT_SETTINGS, smtp_password: '' }, ADMIN);
    expect(await admin.rpc.call(RPC.admin.effectiveSettings, {}, null)).toMatchObject({ smtp_host: '', smtp_password: '' });
  });

  it('refuses settings outside the rules with a 422 and keeps what was stored', async () => {
    const before = await admin.rpc.call(RPC.admin.getSettings, {}, ADMIN);
    expect(await refusedWith(admin.rpc.call(RPC.admin.updateSettings, { ...DEFAULT_SETTINGS, success_fee: 2.555 }, ADMIN))).toBe(422);
    expect(await refusedWith(admin.rpc.call(RPC.admin.updateSettings, { ...DEFAULT_SETTINGS, smtp_port: 0 }, ADMIN))).toBe(422);
    expect(await admin.rpc.call(RPC.admin.getSettings, {}, ADMIN)).toEqual(before);
  });

  it('records audit events from the stream once each, and lists them to admins only', async () => {
    const envelope: EventEnvelope<'audit.recorded'> = {
      id: randomUUID(),
      name: 'audit.recorded',
      occurred_at: new Date().toISOString(),
      request_id: null,
      payload: { admin_id: ADMIN.user_id, target_id: MEMBER.user_id, action: 'impersonation.start', method: 'POST', route: '/api/admin/impersonate/x', at: new Date().toISOString() },
    };
    const marker: EventEnvelope<'audit.recorded'> = { ...envelope, id: randomUUID(), payload: { ...envelope.payload, target_id: randomUUID() } };
    const publish = (event: EventEnvelope) => publishSignedEvent(nc, admin.env, event, { msgID: randomUUID() });
    // Published twice with different message ids, then a marker: once the marker is listed, both copies were handled.
    await publish(envelope);
    await publish(envelope);
    await publish(marker);
    await eventually(async () => {
      const { entries } = await admin.rpc.call(RPC.admin.auditLog, {}, ADMIN);
      expect(entries.some((entry) => entry.target_id === marker.payload.target_id)).toBe(true);
    });
    const { entries } = await admin.rpc.call(RPC.admin.auditLog, {}, ADMIN);
    expect(entries.filter((entry) => entry.target_id === MEMBER.user_id)).toHaveLength(1);
    expect(await refusedWith(admin.rpc.call(RPC.admin.auditLog, {}, MEMBER))).toBe(403);
  });
});
