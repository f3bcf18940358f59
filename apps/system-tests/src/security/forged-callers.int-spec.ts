import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { DEFAULT_SETTINGS, RPC, type RpcDefinition } from '@market/contracts';
import { generateSigningKeys } from '@market/server-kit';
import { requestAs } from '@market/server-kit/testing';
import { startStack, type Stack } from '../support/start-stack';

// An admin subject of every service (bidding has none: its caller-only My Bids), with a request it would act on.
const TARGETS: Array<[string, RpcDefinition, unknown]> = [
  ['auth-service', RPC.auth.updateUser, { id: randomUUID(), changes: { status: 'suspended' } }],
  ['listings-service', RPC.listings.adminUpdate, { id: randomUUID(), changes: { featured: true } }],
  ['bidding-service', RPC.bidding.userBids, {}],
  ['billing-service', RPC.billing.adminCapture, { id: randomUUID(), request: {} }],
  ['admin-service', RPC.admin.updateSettings, { ...DEFAULT_SETTINGS, success_fee: 49 }],
  ['notifications-service', RPC.notifications.recentEmails, {}],
];

describe('a request published straight onto NATS', () => {
  let stack: Stack;
  let nc: NatsConnection;
  const codec = JSONCodec();

  /**
   * Sends a raw envelope the way the gateway's own process could (signed with its bus key, D25: what the signature
   * proves is the sender, never the caller), and returns the service's error status.
   */
  const refusalOf = async (definition: RpcDefinition, meta: Record<string, unknown>, data: unknown): Promise<number | null> => {
    const subject = `${stack.env.NATS_SUBJECT_PREFIX}${definition.subject}`;
    const packet = codec.encode({ pattern: subject, id: randomUUID(), data: { meta: { request_id: randomUUID(), ...meta }, data } });
    const reply = await requestAs(nc, stack.env, 'gateway', subject, packet);
    const answer = codec.decode(reply.data) as { err?: { status?: number } };
    return answer.err?.status ?? null;
  };

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'notifications', 'admin', 'listings', 'billing', 'bidding'] });
    nc = await connect({ servers: stack.env.NATS_URL });
  });
  afterAll(async () => {
    await nc?.close();
    await stack?.stop();
  });

  it.each(TARGETS)('is refused by %s when it only claims an admin, or carries a token signed by another key', async (_service, definition, data) => {
    const adminId = randomUUID();
    // What a service trusted before ADR 0030: an actor written into the envelope.
    expect(await refusalOf(definition, { token: null, actor: { user_id: adminId, role: 'admin' } }, data)).toBe(401);
    // A token in the right shape, naming the right key id, signed with a key no process trusts.
    const kid = JSON.parse(stack.env.JWT_PUBLIC_KEYS).keys[0].kid;
    const forged = jwt.sign({ sid: randomUUID(), ver: 0, role: 'admin' }, generateSigningKeys().JWT_PRIVATE_KEY, { algorithm: 'ES256', subject: adminId, keyid: kid, expiresIn: 600 });
    expect(await refusalOf(definition, { token: forged }, data)).toBe(401);
  });

  it('changes nothing: the settings keep their defaults', async () => {
    expect(await refusalOf(RPC.admin.publicFees, { token: null }, {})).toBeNull();
    const fees = await fetch(`${stack.url}/api/fees`).then((response) => response.json());
    expect(fees).toEqual({
      success_fee_percent: DEFAULT_SETTINGS.success_fee,
      verified_email_required: DEFAULT_SETTINGS.require_verified_email,
      inspection_days: DEFAULT_SETTINGS.inspection_days,
    });
  });
});
