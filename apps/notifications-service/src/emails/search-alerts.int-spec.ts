import { randomUUID } from 'node:crypto';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import { DEFAULT_SETTINGS, RPC, type EventEnvelope, type EventPayloads } from '@market/contracts';
import { metricsRegistry, parseEnvOrThrow } from '@market/server-kit';
import { eventually, openRequest, publishSignedEvent, respondSigned, startServiceUnderTest, type ServiceUnderTest } from '@market/server-kit/testing';
import { notificationsAppModule } from '../app.module';
import { notificationsEnv } from '../notifications.config';

const WINDOW_MS = 3_000;
const request = JSONCodec<{ id: string; data: { data: { user_ids?: string[] } } }>();

interface SentAlert {
  job_id: string;
  subject: string;
  text_body: string;
  headers: Record<string, string> | null;
  sent_at: Date;
}

/**
 * Saved-search alerts of ADR 0074 on a real bus, database and queue: a search's first match is mailed soon, the
 * matches after it wait for the window (3 s here, a day in production) and go out together, each listing once.
 */
describe('saved-search alert emails: one per search per window, with one-click unsubscribe (ADR 0074)', () => {
  let svc: ServiceUnderTest;
  let ds: DataSource;
  let nc: NatsConnection;

  const address = (userId: string) => `${userId}@example.com`;
  const alerts = (userId: string): Promise<SentAlert[]> =>
    ds.query(`SELECT job_id, subject, text_body, headers, sent_at FROM emails WHERE to_address = $1 AND kind = 'search_alert' ORDER BY id`, [address(userId)]);
  const publish = async (payload: EventPayloads['saved_search.matched'], id: string = randomUUID()) => {
    const envelope: EventEnvelope<'saved_search.matched'> = { id, name: 'saved_search.matched', occurred_at: new Date().toISOString(), request_id: null, payload };
    await publishSignedEvent(nc, svc.env, envelope, { msgID: randomUUID() });
    return id;
  };
  /** A listing that matched these searches, as listings-service announces it. */
  const matched = (title: string, searches: Array<{ id: string; user: string; name: string }>, listingId: string = randomUUID()): EventPayloads['saved_search.matched'] => ({
    listing_id: listingId,
    listing_title: title,
    listing_type: 'auction',
    category: 'Blog',
    price: 4_500,
    matched_at: new Date().toISOString(),
    matches: searches.map((s) => ({ search_id: s.id, user_id: s.user, search_name: s.name, unsubscribe_token: `s-${s.id}.${'a'.repeat(86)}` })),
  });
  const match = (search: { id: string; user: string; name: string }, title: string, listingId?: string) => matched(title, [search], listingId);
  const search = (name: string, user: string = randomUUID()) => ({ id: randomUUID(), user, name });

  beforeAll(async () => {
    svc = await startServiceUnderTest(
      'notifications-service',
      (env) => {
        const config = parseEnvOrThrow(notificationsEnv, env);
        return { module: notificationsAppModule(config), config };
      },
      { SEARCH_ALERT_INTERVAL_MS: String(WINDOW_MS), PUBLIC_URL: 'https://market.example' },
    );
    ds = svc.app.get(DataSource);
    // Stands in for auth-service (members, but for ids starting "gone-") and admin-service (no SMTP: the log keeps mail).
    nc = await connect({ servers: svc.env.NATS_URL });
    nc.subscribe(`${svc.env.NATS_SUBJECT_PREFIX}${RPC.auth.contacts.subject}`, {
      callback: (_error, message) => {
        const packet = request.decode(openRequest(svc.env, 'auth-service', message));
        const contacts = (packet.data.data.user_ids ?? [])
          .filter((id) => !id.startsWith('gone-'))
          .map((id) => ({ id, username: `user_${id.slice(0, 8)}`, email: address(id), status: 'active' }));
        respondSigned(svc.env, 'auth-service', message, { id: packet.id, response: { contacts }, isDisposed: true });
      },
    });
    nc.subscribe(`${svc.env.NATS_SUBJECT_PREFIX}${RPC.admin.effectiveSettings.subject}`, {
      callback: (_error, message) => respondSigned(svc.env, 'admin-service', message, { id: request.decode(openRequest(svc.env, 'admin-service', message)).id, response: DEFAULT_SETTINGS, isDisposed: true }),
    });
    await nc.flush();
  });
  afterAll(async () => {
    await nc?.close();
    await svc?.stop();
  });

  it('mails the first match after a short gathering, then gathers the rest into one email a window later, each listing once', async () => {
    const gardening = search('Gardening blogs');
    const first = await publish(match(gardening, 'Rose garden journal'));
    await eventually(async () => expect(await alerts(gardening.user)).toHaveLength(1), 15_000);
    const [one] = await alerts(gardening.user);
    expect(one.job_id).toBe(`search_alert-${first}_${gardening.id}`);
    expect(one.subject).toBe('1 new listing matches "Gardening blogs"');
    expect(one.text_body).toContain('- Rose garden journal (auction, $4,500): https://market.example/listing/');
    expect(one.text_body).toContain(`Stop alerts for this search: https://market.example/unsubscribe/s-${gardening.id}.`);
    expect(one.headers).toEqual({
      'List-Unsubscribe': `<https://market.example/api/unsubscribe/s-${gardening.id}.${'a'.repeat(86)}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });

    // Three more inside the window, one of them delivered twice and one naming a listing already in the digest.
    const tulips = match(gardening, 'Tulip growers');
    const tulipEvent = await publish(tulips);
    await publish(tulips, tulipEvent);
    await publish(match(gardening, 'Tulip growers again', tulips.listing_id));
    await publish(match(gardening, 'Orchid care'));
    await eventually(async () => expect(await alerts(gardening.user)).toHaveLength(2), 15_000);
    const [, two] = await alerts(gardening.user);
    expect(two.subject).toBe('2 new listings match "Gardening blogs"');
    expect(two.text_body.match(/Tulip growers/g)).toHaveLength(1);
    expect(two.text_body).toContain('Orchid care');
    // Each hand-over is timed from when the email was due, a notice's own budget (docs/slo.md).
    const delays = (await metricsRegistry.getSingleMetric('market_email_delivery_delay_seconds')?.get())?.values ?? [];
    const handedOver = delays.find((v) => (v as { metricName?: string }).metricName === 'market_email_delivery_delay_seconds_count' && v.labels.class === 'notice');
    expect(handedOver?.value).toBeGreaterThanOrEqual(2);
    // Not before the window: the search's last email went out at least WINDOW_MS earlier.
    const [{ closed }] = await ds.query(`SELECT min(closed_at) AS closed FROM search_alert_digests WHERE search_id = $1`, [gardening.id]);
    expect(new Date(two.sent_at).getTime() - new Date(closed).getTime()).toBeGreaterThanOrEqual(WINDOW_MS - 50);
  });

  it('keeps searches apart, and mails nobody whose account is gone', async () => {
    const user = randomUUID();
    const [saas, shops] = [search('SaaS', user), search('Shops', user)];
    const gone = search('Gone', `gone-${randomUUID()}`);
    // One listing matching three searches: two of one person's, and one of an account that is gone.
    await publish(matched('Invoice tool', [gone, saas, shops]));
    await eventually(async () => expect((await alerts(user)).map((a) => a.subject).sort()).toEqual(['1 new listing matches "SaaS"', '1 new listing matches "Shops"']), 15_000);
    expect((await alerts(user)).every((a) => a.text_body.includes('Invoice tool'))).toBe(true);
    expect(await ds.query('SELECT 1 FROM search_alert_digests WHERE search_id = $1', [gone.id])).toEqual([]);
  });

  it('mails one "ending in 24 hours" reminder per event, with its one-click unsubscribe', async () => {
    const user = randomUUID();
    const token = `w-${user}.${'c'.repeat(86)}`;
    const payload: EventPayloads['watch.ending_soon'] = {
      user_id: user,
      listing_id: randomUUID(),
      listing_title: 'Sourdough school',
      expires_at: '2030-03-01T18:30:00.000Z',
      current_price: 7_250,
      bid_count: 3,
      unsubscribe_token: token,
    };
    const envelope: EventEnvelope<'watch.ending_soon'> = { id: randomUUID(), name: 'watch.ending_soon', occurred_at: new Date().toISOString(), request_id: null, payload };
    // The event, a copy of it (a relay retrying), then another reminder: the one consumer applies them in order, so
    // once the last is mailed the copy has been applied.
    await publishSignedEvent(nc, svc.env, envelope, { msgID: randomUUID() });
    await publishSignedEvent(nc, svc.env, envelope, { msgID: randomUUID() });
    const marker = { ...envelope, id: randomUUID(), payload: { ...payload, listing_title: 'Marker' } };
    await publishSignedEvent(nc, svc.env, marker, { msgID: randomUUID() });
    const sent = async (): Promise<SentAlert[]> =>
      ds.query(`SELECT job_id, subject, text_body, headers, sent_at FROM emails WHERE to_address = $1 AND kind = 'watch_ending' ORDER BY id`, [address(user)]);
    await eventually(async () => expect((await sent()).map((e) => e.subject).sort()).toEqual(['Ending in 24 hours: "Marker"', 'Ending in 24 hours: "Sourdough school"']), 15_000);
    const email = (await sent()).find((e) => e.job_id === `watch_ending-${envelope.id}`)!;
    expect(email.subject).toBe('Ending in 24 hours: "Sourdough school"');
    expect(email.text_body).toContain('ends at 2030-03-01 18:30 UTC.');
    expect(email.text_body).toContain('The current bid is $7,250 (3 bids).');
    expect(email.headers).toEqual({ 'List-Unsubscribe': `<https://market.example/api/unsubscribe/${token}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  });
});
