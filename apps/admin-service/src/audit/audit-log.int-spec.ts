import { randomUUID } from 'node:crypto';
import { connect, JSONCodec, type NatsConnection, type Subscription } from 'nats';
import { Client } from 'pg';
import { DEFAULT_SETTINGS, RPC, type Actor, type AuditLogEntry, type AuditQuery, type EventEnvelope, type EventPayloads } from '@market/contracts';
import { AppError, parseEnvOrThrow, RpcClient, serviceEnv } from '@market/server-kit';
import { eventually, publishSignedEvent, respondSigned, startServiceUnderTest, type ServiceUnderTest, testBusIdentity, testCaller, openRequest } from '@market/server-kit/testing';
import { adminAppModule } from '../app.module';

// Callers with tokens the service verifies itself (ADR 0030), made in beforeAll.
let ADMIN: Actor;
let MEMBER: Actor;
let IMPERSONATING: Actor;

/** The typed error a call was refused with, or a failure when it was answered. */
async function refusal(promise: Promise<unknown>): Promise<{ status: number; detail: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, detail: error.detail };
    throw error;
  }
  throw new Error('the call was answered, not refused');
}

describe('the audit log in admin-service (ADR 0032)', () => {
  let admin: ServiceUnderTest;
  let nc: NatsConnection;
  let db: Client;
  let profiles: Subscription;
  /** Two admins, as the auth service's stand-in knows them (the username filter and the names ask it). */
  const admins = {
    alice: { id: randomUUID(), username: `audit_alice_${randomUUID().slice(0, 6)}` },
    bob: { id: randomUUID(), username: `audit_bob_${randomUUID().slice(0, 6)}` },
  };

  /** Answers auth.public_profiles as the auth service would (Nest's NATS reply packet), for the two admins. */
  const standInForAuth = (): Subscription => {
    const codec = JSONCodec<{ id: string; data: { data: { user_ids: string[] } } }>();
    const known = Object.values(admins);
    return nc.subscribe(`${admin.env.NATS_SUBJECT_PREFIX}${RPC.auth.publicProfiles.subject}`, {
      callback: (_error, message) => {
        const { id, data } = codec.decode(openRequest(admin.env, 'auth-service', message));
        const found = known.filter((user) => data.data.user_ids.includes(user.id)).map((user) => ({ ...user, name: null, verified: false }));
        respondSigned(admin.env, 'auth-service', message, { id, response: { profiles: found }, isDisposed: true });
      },
    });
  };

  const search = (query: Partial<AuditQuery>, actor: Actor | null = ADMIN) => admin.rpc.call(RPC.admin.audit, query, actor);
  const publish = <N extends 'admin.acted' | 'audit.recorded'>(name: N, payload: EventPayloads[N], id: string = randomUUID()) => {
    const envelope: EventEnvelope<N> = { id, name, occurred_at: new Date().toISOString(), request_id: null, payload };
    // A fresh message id each time: JetStream's duplicate window must not hide a second copy from the consumer.
    return publishSignedEvent(nc, admin.env, envelope as EventEnvelope, { msgID: randomUUID() });
  };
  const act = (overrides: Partial<EventPayloads['admin.acted']>): EventPayloads['admin.acted'] => ({
    admin_id: admins.alice.id,
    impersonator_id: null,
    action: 'user.suspended',
    target_type: 'user',
    target_id: randomUUID(),
    target_label: null,
    before: { status: 'active' },
    after: { status: 'suspended' },
    changed_secrets: [],
    at: new Date().toISOString(),
    ...overrides,
  });
  /** Waits until the log lists an entry for the target (events are handled in order, so everything before it too). */
  const listed = (target: string, count = 1) =>
    eventually(async () => {
      const { entries } = await search({ target, limit: 200 });
      expect(entries.length).toBeGreaterThanOrEqual(count);
      return entries;
    });

  beforeAll(async () => {
    admin = await startServiceUnderTest('admin-service', (env) => {
      const config = parseEnvOrThrow(serviceEnv, env);
      return { module: adminAppModule(config), config };
    });
    nc = await connect({ servers: admin.env.NATS_URL });
    profiles = standInForAuth();
    await nc.flush();
    db = new Client({ connectionString: admin.db.url });
    await db.connect();
    ADMIN = await testCaller(admin.env, { role: 'admin' });
    MEMBER = await testCaller(admin.env, { role: 'regular' });
    IMPERSONATING = await testCaller(admin.env, { role: 'regular', impersonator_id: ADMIN.user_id });
  });
  afterAll(async () => {
    await db?.end();
    profiles?.unsubscribe();
    await nc?.close();
    await admin?.stop();
  });

  it("keeps admins' acts and impersonation entries in one list, newest first, each event once", async () => {
    const user = randomUUID();
    const suspended = act({ target_id: user, at: '2026-11-20T10:00:00.000Z' });
    const started: EventPayloads['audit.recorded'] = {
      admin_id: admins.bob.id,
      target_id: user,
      action: 'impersonation.start',
      method: 'POST',
      route: `/api/admin/impersonate/${user}`,
      at: '2026-11-20T11:00:00.000Z',
    };
    const [actId, startId] = [randomUUID(), randomUUID()];
    // Each event twice (a redelivery), then a marker: once the marker is listed, every copy before it was handled.
    await publish('admin.acted', suspended, actId);
    await publish('audit.recorded', started, startId);
    await publish('admin.acted', suspended, actId);
    await publish('audit.recorded', started, startId);
    const marker = randomUUID();
    await publish('admin.acted', act({ target_id: marker }));
    await listed(marker);

    const { entries, next_cursor } = await search({ target: user });
    expect(next_cursor).toBeNull();
    expect(entries).toEqual<AuditLogEntry[]>([
      {
        id: startId,
        at: started.at,
        action: 'impersonation.start',
        admin_id: admins.bob.id,
        admin_username: admins.bob.username,
        impersonator_id: null,
        impersonator_username: null,
        target_type: 'user',
        target_id: user,
        target_label: null,
        before: null,
        after: null,
        changed_secrets: [],
        request: { method: 'POST', route: `/api/admin/impersonate/${user}` },
      },
      {
        id: actId,
        at: suspended.at,
        action: 'user.suspended',
        admin_id: admins.alice.id,
        admin_username: admins.alice.username,
        impersonator_id: null,
        impersonator_username: null,
        target_type: 'user',
        target_id: user,
        target_label: null,
        before: { status: 'active' },
        after: { status: 'suspended' },
        changed_secrets: [],
        request: null,
      },
    ]);
    // The Overview's list stays what it was: impersonation entries only.
    const overview = await admin.rpc.call(RPC.admin.auditLog, {}, ADMIN);
    expect(overview.entries.filter((entry) => entry.target_id === user)).toEqual([
      { id: startId, admin_id: admins.bob.id, target_id: user, action: 'impersonation.start', method: 'POST', route: started.route, at: started.at },
    ]);
  });

  it('refuses UPDATE, DELETE and TRUNCATE on the log whoever asks, and keeps the rows', async () => {
    const target = randomUUID();
    await publish('admin.acted', act({ target_id: target }));
    await listed(target);
    for (const statement of [
      `UPDATE admin.audit_log SET action = 'user.activated' WHERE target_id = '${target}'`,
      `DELETE FROM admin.audit_log WHERE target_id = '${target}'`,
      'TRUNCATE admin.audit_log',
    ]) {
      await expect(db.query(statement)).rejects.toThrow(/admin\.audit_log is append-only: (UPDATE|DELETE|TRUNCATE) is not allowed/);
    }
    const { rows } = await db.query('SELECT action FROM admin.audit_log WHERE target_id = $1', [target]);
    expect(rows).toEqual([{ action: 'user.suspended' }]);
  });

  it('filters by actor id or username, action, target and dates, and pages newest first with a cursor', async () => {
    const listing = randomUUID();
    const acts = [
      act({ admin_id: admins.alice.id, action: 'listing.featured', target_type: 'listing', target_id: listing, before: { featured: false }, after: { featured: true }, at: '2020-01-01T09:00:00.000Z' }),
      act({ admin_id: admins.bob.id, action: 'listing.status_changed', target_type: 'listing', target_id: listing, before: { status: 'pending' }, after: { status: 'active' }, at: '2020-01-02T09:00:00.000Z' }),
      act({ admin_id: admins.alice.id, action: 'listing.status_changed', target_type: 'listing', target_id: listing, before: { status: 'active' }, after: { status: 'expired' }, at: '2020-01-03T09:00:00.000Z' }),
      act({ admin_id: admins.bob.id, action: 'listing.unfeatured', target_type: 'listing', target_id: listing, before: { featured: true }, after: { featured: false }, at: '2020-01-04T09:00:00.000Z' }),
      act({ admin_id: admins.alice.id, action: 'listing.deleted', target_type: 'listing', target_id: listing, target_label: 'Heron blog', before: { status: 'expired', featured: false }, after: null, at: '2020-01-05T09:00:00.000Z' }),
    ];
    for (const payload of acts) await publish('admin.acted', payload);
    await listed(listing, acts.length);
    const ats = (page: { entries: AuditLogEntry[] }) => page.entries.map((entry) => entry.at);

    expect(ats(await search({ target: listing }))).toEqual(acts.map((a) => a.at).reverse());
    expect(ats(await search({ target: listing, actor: admins.bob.id }))).toEqual([acts[3].at, acts[1].at]);
    // Part of a username, in any case, finds that admin's entries.
    expect(ats(await search({ target: listing, actor: admins.alice.username.slice(0, 12).toUpperCase() }))).toEqual([acts[4].at, acts[2].at, acts[0].at]);
    expect((await search({ actor: 'nobody-by-this-name' })).entries).toEqual([]);
    expect(ats(await search({ target: listing, action: 'listing.status_changed' }))).toEqual([acts[2].at, acts[1].at]);
    // A date covers its whole day (UTC); a date-time is exact, and `to` is exclusive.
    expect(ats(await search({ target: listing, from: '2020-01-02', to: '2020-01-03' }))).toEqual([acts[2].at, acts[1].at]);
    expect(ats(await search({ target: listing, from: '2020-01-02T09:00:00Z', to: '2020-01-04T09:00:00Z' }))).toEqual([acts[2].at, acts[1].at]);
    expect((await search({ target: listing })).entries[0]).toMatchObject({ target_label: 'Heron blog', before: { status: 'expired', featured: false }, after: null });

    // Pages of two follow the cursor to the end: every entry once, newest first.
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page += 1) {
      const answer = await search({ target: listing, limit: 2, cursor });
      seen.push(...ats(answer));
      if (!answer.next_cursor) break;
      cursor = answer.next_cursor;
    }
    expect(seen).toEqual(acts.map((a) => a.at).reverse());

    expect(await refusal(search({ cursor: 'not-a-cursor' }))).toMatchObject({ status: 422, detail: [{ loc: ['query', 'cursor'] }] });
    // A cursor of the right shape naming a time that does not exist is refused too, never cast by PostgreSQL (a 500).
    const impossible = Buffer.from(JSON.stringify(['2026-99-99 99:99:99+00', randomUUID()])).toString('base64url');
    expect(await refusal(search({ cursor: impossible }))).toEqual({
      status: 422,
      detail: [{ loc: ['query', 'cursor'], msg: 'Not a cursor this list handed out', type: 'cursor' }],
    });
    expect(await refusal(search({ from: '2020-01-05', to: '2020-01-01' }))).toMatchObject({ status: 422 });
    expect(await refusal(search({ action: 'user.hacked' as never }))).toMatchObject({ status: 422 });
    expect(await refusal(search({ target: 'not-an-id' }))).toMatchObject({ status: 422 });
  });

  it('without the auth service, a username filter is a 503 that says what to do, and entries still list without names', async () => {
    const target = randomUUID();
    await publish('admin.acted', act({ target_id: target }));
    await listed(target);
    profiles.unsubscribe();
    // Once the server has the unsubscription, a lookup finds no responder at once; before, it could still be routed
    // to the stand-in, which drops it, and the lookup would wait out its whole timeout.
    await nc.flush();
    try {
      // A caller more patient than the service's own lookup: should the lookup wait out its timeout instead of
      // hearing "no responders" (a loaded machine), the service's answer still arrives before the caller gives up.
      const patient = new RpcClient({ natsUrl: admin.env.NATS_URL, name: 'audit-patient-test', timeoutMs: 15_000, subjectPrefix: admin.env.NATS_SUBJECT_PREFIX, bus: testBusIdentity(admin.env) });
      try {
        expect(await refusal(patient.call(RPC.admin.audit, { actor: 'alice' }, ADMIN))).toEqual({
          status: 503,
          detail: 'Usernames cannot be looked up right now; filter by the admin id instead, or try again',
        });
      } finally {
        await patient.close();
      }
      const { entries } = await search({ target, actor: admins.alice.id });
      expect(entries).toEqual([expect.objectContaining({ admin_id: admins.alice.id, admin_username: null })]);
    } finally {
      profiles = standInForAuth();
      await nc.flush();
    }
  });

  it('answers real admins only, never a member or an admin acting as a user', async () => {
    expect(await refusal(search({}, MEMBER))).toMatchObject({ status: 403 });
    expect(await refusal(search({}, IMPERSONATING))).toMatchObject({ status: 403 });
    expect(await refusal(search({}, null))).toMatchObject({ status: 401 });
  });

  it('audits a settings save once with the changed keys only, the SMTP password named but never shown; a save that changes nothing is not recorded', async () => {
    const settingsActs = () => search({ actor: ADMIN.user_id, action: 'settings.updated' });
    await admin.rpc.call(RPC.admin.updateSettings, { ...DEFAULT_SETTINGS, success_fee: 2.5, smtp_host: 'mail.example.com', smtp_password: 'first-smtp-secret' }, ADMIN);
    // The same settings again: nothing changed, so nothing is recorded.
    await admin.rpc.call(RPC.admin.updateSettings, { ...DEFAULT_SETTINGS, success_fee: 2.5, smtp_host: 'mail.example.com', smtp_password: '' }, ADMIN);
    await admin.rpc.call(RPC.admin.updateSettings, { ...DEFAULT_SETTINGS, success_fee: 2.5, smtp_host: 'mail.example.com', smtp_password: 'second-smtp-secret' }, ADMIN);
    const { entries } = await eventually(async () => {
      const page = await settingsActs();
      expect(page.entries).toHaveLength(2);
      return page;
    });
    expect(entries.map(({ before, after, changed_secrets, target_type, target_id }) => ({ before, after, changed_secrets, target_type, target_id }))).toEqual([
      { before: {}, after: {}, changed_secrets: ['smtp_password'], target_type: 'settings', target_id: null },
      {
        before: { smtp_host: '', success_fee: 0 },
        after: { smtp_host: 'mail.example.com', success_fee: 2.5 },
        changed_secrets: ['smtp_password'],
        target_type: 'settings',
        target_id: null,
      },
    ]);
    const stored = JSON.stringify((await db.query('SELECT * FROM admin.audit_log')).rows);
    expect(stored).not.toMatch(/first-smtp-secret|second-smtp-secret/);
    const outbox = JSON.stringify((await db.query('SELECT payload FROM admin.outbox')).rows);
    expect(outbox).not.toMatch(/first-smtp-secret|second-smtp-secret/);
  });
});
