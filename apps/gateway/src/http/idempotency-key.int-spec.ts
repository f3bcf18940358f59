import { randomUUID } from 'node:crypto';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { ownerOf, RPC, type Actor, type RpcMeta, type ServiceName } from '@market/contracts';
import { respondSigned, testCaller, openRequest } from '@market/server-kit/testing';
import { startGateway, type LoneGateway } from '../testing/start-gateway';

const codec = JSONCodec<{ id: string; data: { meta: RpcMeta } }>();

describe('Idempotency-Key at the gateway (ADR 0047)', () => {
  let stack: LoneGateway;
  let responder: NatsConnection;
  let member: Actor;
  let admin: Actor;
  /** The envelope meta each subject last received. */
  const received = new Map<string, RpcMeta>();

  const listingForm = () => {
    const form = new FormData();
    const fields: Record<string, string> = {
      title: 'Site for sale here',
      description: 'A well kept website with loyal readers and steady income every month.',
      category: 'Blog',
      website_url: 'https://site-a.example.com',
      monthly_revenue: '1000',
      annual_revenue: '12000',
      monthly_traffic: '20000',
      profit_margin: '50',
      business_age_months: '24',
      monetization_methods: 'AdSense',
      starting_price: '5000',
    };
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return form;
  };
  const id = randomUUID();
  const writes = () => [
    { subject: RPC.bidding.placeBid.subject, path: '/api/bids', body: { listing_id: id, amount: 100 }, who: member },
    { subject: RPC.billing.buyNow.subject, path: `/api/listings/${id}/buy-now`, body: undefined, who: member },
    { subject: RPC.notifications.sendMessage.subject, path: '/api/messages', body: { receiver_id: id, subject: 'Hi', content: 'Still for sale?' }, who: member },
    { subject: RPC.billing.createPayment.subject, path: `/api/invoices/${id}/create-payment`, body: {}, who: member },
    { subject: RPC.billing.adminCapture.subject, path: `/api/admin/payment-intents/${id}/capture`, body: {}, who: admin },
    { subject: RPC.billing.adminRefund.subject, path: `/api/admin/payment-intents/${id}/refund`, body: {}, who: admin },
    { subject: RPC.listings.create.subject, path: '/api/listings', body: listingForm(), who: member },
  ];
  const post = async (path: string, body: unknown, who: Actor, key?: string) => {
    const headers: Record<string, string> = { authorization: `Bearer ${who.token}` };
    if (key !== undefined) headers['idempotency-key'] = key;
    if (body !== undefined && !(body instanceof FormData)) headers['content-type'] = 'application/json';
    const response = await fetch(`${stack.url}${path}`, {
      method: 'POST',
      headers,
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json().catch(() => null)) as unknown };
  };

  beforeAll(async () => {
    stack = await startGateway({ RPC_TIMEOUT_MS: '3000' });
    [member, admin] = [await testCaller(stack.env, { role: 'regular' }), await testCaller(stack.env, { role: 'admin' })];
    // Stands in for the services: records what each write's envelope said and refuses it with a marker 409.
    responder = await connect({ servers: stack.env.NATS_URL });
    for (const { subject } of writes()) {
      responder.subscribe(`${stack.env.NATS_SUBJECT_PREFIX}${subject}`, {
        callback: (_error, message) => {
          const packet = codec.decode(openRequest(stack.env, ownerOf(subject) as ServiceName, message));
          received.set(subject, packet.data.meta);
          respondSigned(stack.env, ownerOf(subject) as ServiceName, message, { id: packet.id, err: { code: 'conflict', status: 409, detail: 'recorded' }, isDisposed: true });
        },
      });
    }
    await responder.flush();
  });
  afterAll(async () => {
    await responder?.close();
    await stack?.stop();
  });

  it("forwards each write's key and the gateway's deadline in the envelope", async () => {
    for (const write of writes()) {
      const key = `key-${randomUUID()}`;
      const sentAt = Date.now();
      const answer = await post(write.path, write.body, write.who, key);
      expect({ subject: write.subject, ...answer }).toEqual({ subject: write.subject, status: 409, body: expect.objectContaining({ detail: 'recorded' }) });
      const meta = received.get(write.subject);
      expect(meta?.idempotency_key).toBe(key);
      expect(meta?.deadline).toBeGreaterThanOrEqual(sentAt + 3000);
      expect(meta?.deadline).toBeLessThanOrEqual(Date.now() + 3000);
    }
    // A listing's fingerprint is the fields and the images, not the storage keys its screenshots were given.
    expect(received.get(RPC.listings.create.subject)?.idempotency_fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('sends no key when the client sent none', async () => {
    const [write] = writes();
    received.delete(write.subject);
    expect((await post(write.path, write.body, write.who)).status).toBe(409);
    expect(received.get(write.subject)).toBeDefined();
    expect(received.get(write.subject)?.idempotency_key).toBeUndefined();
  });

  it('refuses a malformed key with 400 and a clear detail before any service is asked', async () => {
    for (const bad of ['short', 'has space in it', 'x'.repeat(129), 'ünïcode-key-1']) {
      for (const write of writes()) {
        received.delete(write.subject);
        const answer = await post(write.path, write.body, write.who, bad);
        expect({ subject: write.subject, ...answer }).toEqual({
          subject: write.subject,
          status: 400,
          body: expect.objectContaining({ code: 'bad_request', detail: 'Idempotency-Key must be 8 to 128 characters of letters, digits, "-", "_", "." or ":"' }),
        });
        expect(received.has(write.subject)).toBe(false);
      }
    }
  });
});
