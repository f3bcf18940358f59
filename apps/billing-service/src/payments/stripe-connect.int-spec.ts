import type Stripe from 'stripe';
import { payoutAccountStatusOf } from '@market/domain';
import { AppError } from '@market/server-kit';
import { ProviderError, type ProviderEvent, type ProviderTransfer } from './payment-provider';
import type { ProviderEventsRouter } from './provider-events.router';
import { StripeProvider, stripeClient } from './stripe-provider';
import { StripeWebhooks, providerEventOf } from './stripe-webhooks';
import { StripeStandIn } from './testing/stripe-stand-in';

// receive's collaborators (the router's handlers, the repositories) reach the database; here only the signature check
// and the notice it hands on are under test, so they are empty classes (stripe-webhooks.int-spec.ts runs the full path).
jest.mock('./provider-events.router', () => ({ ProviderEventsRouter: class ProviderEventsRouter {} }));
jest.mock('./payment-events.handler', () => ({ PaymentEventsHandler: class PaymentEventsHandler {} }));
jest.mock('./payment-intents.repository', () => ({ PaymentIntentsRepository: class PaymentIntentsRepository {} }));
jest.mock('../invoices/invoices.repository', () => ({ InvoicesRepository: class InvoicesRepository {} }));

const PLATFORM_SECRET = 'whsec_platform_endpoint';
const CONNECT_SECRET = 'whsec_connect_endpoint';
const DUE_AT_START = ['external_account', 'individual.dob.day', 'individual.first_name', 'individual.last_name', 'tos_acceptance.date'];
const DOCUMENT = ['individual.verification.document'];
const invoiceId = 'b1c2d3e4-0000-4000-8000-00000000a001';

describe('Stripe Connect through the official SDK against the stand-in (D22: escrow, separate charges and transfers)', () => {
  const standIn = new StripeStandIn();
  let provider: StripeProvider;
  let sequence = 0;
  const key = (what: string) => `${what}-${++sequence}`;
  const newAccount = (userId = `user-${++sequence}`) => provider.connect.createAccount({ user_id: userId, idempotency_key: `payout-account-${userId}` });
  const enabledAccount = async () => {
    const account = await newAccount();
    standIn.completeOnboarding(account.id, 'complete');
    return account;
  };
  /** A buyer's hold, captured into the platform's balance: the money a payout comes from. */
  const capturedCharge = async (amount = 450_000) => {
    const intent = await provider.createIntent({ amount_cents: amount, currency: 'usd', idempotency_key: key('intent'), metadata: { invoice_id: invoiceId } });
    standIn.authorize(intent.id);
    return provider.capture(intent.id);
  };
  const transferInput = (destination: string, over: Partial<Parameters<StripeProvider['connect']['createTransfer']>[0]> = {}) => ({
    amount_cents: 405_000,
    currency: 'usd' as const,
    destination,
    transfer_group: invoiceId,
    source_transaction: null,
    idempotency_key: key('payout'),
    metadata: { invoice_id: invoiceId },
    ...over,
  });
  const eventsFor = (type: string, objectId: string) => standIn.events.filter((e) => e.type === type && e.data.object.id === objectId) as Stripe.Event[];
  const posts = (path: string) => standIn.requests.filter((r) => r.method === 'POST' && r.path === path);

  beforeAll(async () => {
    const port = await standIn.start();
    provider = new StripeProvider(
      stripeClient({ STRIPE_SECRET_KEY: 'sk_test_stand_in', STRIPE_API_HOST: '127.0.0.1', STRIPE_API_PORT: port, STRIPE_API_PROTOCOL: 'http' }),
    );
  });
  afterAll(() => standIn.stop());

  it('makes one Express account per seller key, asking only for transfers, with the seller in its metadata', async () => {
    const first = await provider.connect.createAccount({ user_id: 'user-a', idempotency_key: 'payout-account-user-a' });
    const again = await provider.connect.createAccount({ user_id: 'user-a', idempotency_key: 'payout-account-user-a' });
    expect(again).toEqual(first);
    expect(first).toEqual({
      id: expect.stringMatching(/^acct_/),
      user_id: 'user-a',
      details_submitted: false,
      payouts_enabled: false,
      currently_due: DUE_AT_START,
      past_due: [],
      pending_verification: [],
      disabled_reason: 'requirements.past_due',
    });
    const sent = posts('/v1/accounts');
    expect(sent.map((r) => [r.idempotency_key, r.replayed])).toEqual([
      ['payout-account-user-a', false],
      ['payout-account-user-a', true],
    ]);
    expect(sent[0].params).toEqual({ type: 'express', country: 'US', capabilities: { transfers: { requested: 'true' } }, metadata: { user_id: 'user-a' } });
    expect(standIn.connect.account(first.id)).toMatchObject({ type: 'express', capabilities: { transfers: 'inactive' } });

    expect(await provider.connect.retrieveAccount(first.id)).toEqual(first);
    expect(await provider.connect.retrieveAccount('acct_missing')).toBeNull();
  });

  it.each([
    ['complete', { payouts_enabled: true, currently_due: [], past_due: [], pending_verification: [], disabled_reason: null }, 'enabled'],
    [
      'pending_verification',
      { payouts_enabled: false, currently_due: [], past_due: [], pending_verification: DOCUMENT, disabled_reason: 'requirements.pending_verification' },
      'pending_verification',
    ],
    ['restricted', { payouts_enabled: false, currently_due: DOCUMENT, past_due: DOCUMENT, pending_verification: [], disabled_reason: 'requirements.past_due' }, 'restricted'],
  ] as const)('reads the account after onboarding ends %s, and Stripe tells the Connect endpoint with account.updated', async (outcome, facts, status) => {
    const account = await newAccount();
    standIn.completeOnboarding(account.id, outcome);
    const read = await provider.connect.retrieveAccount(account.id);
    expect(read).toEqual({ id: account.id, user_id: account.user_id, details_submitted: true, ...facts });
    expect(payoutAccountStatusOf(read)).toBe(status);

    const [event] = eventsFor('account.updated', account.id);
    // A connected account's event names the account it is about: it is sent to the Connect endpoint.
    expect(event).toMatchObject({ account: account.id, data: { object: { object: 'account', payouts_enabled: facts.payouts_enabled } } });
    expect(providerEventOf(event)).toEqual({ id: event.id, type: 'account.updated', account_id: account.id, at: new Date(event.created * 1000) });
  });

  it('makes a new single-use onboarding link at each ask, back to the refresh and return pages', async () => {
    const account = await newAccount();
    const input = {
      account_id: account.id,
      refresh_url: 'https://market.example/account/payouts/onboarding/refresh',
      return_url: 'https://market.example/account/payouts/onboarding/return',
    };
    const before = Date.now();
    const link = await provider.connect.createAccountLink(input);
    expect(link.url).toMatch(new RegExp(`^https://connect\\.stand-in\\.test/setup/e/${account.id}/`));
    expect(link.expires_at.getTime()).toBeGreaterThan(before);
    expect(link.expires_at.getTime()).toBeLessThanOrEqual(before + 301_000);
    expect((await provider.connect.createAccountLink(input)).url).not.toBe(link.url);
    expect(posts('/v1/account_links')[0].params).toEqual({ account: account.id, type: 'account_onboarding', refresh_url: input.refresh_url, return_url: input.return_url });
    await expect(provider.connect.createAccountLink({ ...input, account_id: 'acct_missing' })).rejects.toMatchObject({ code: 'resource_missing' });
  });

  it('pays an enabled account from the captured charge once per key: one transfer, one balance transaction, one transfer.created', async () => {
    const account = await enabledAccount();
    const captured = await capturedCharge();
    expect(captured.charge_id).toMatch(/^ch_/);
    const input = transferInput(account.id, { source_transaction: captured.charge_id, idempotency_key: `payout-${invoiceId}` });
    const transfer = await provider.connect.createTransfer(input);
    expect(await provider.connect.createTransfer(input)).toEqual(transfer);

    expect(transfer).toEqual({
      id: expect.stringMatching(/^tr_/),
      amount_cents: 405_000,
      destination: account.id,
      transfer_group: invoiceId,
      created_at: expect.any(Date),
      reversed: false,
      balance: { id: expect.stringMatching(/^txn_/), amount_cents: -405_000, fee_cents: 0, net_cents: -405_000, created_at: transfer.created_at },
      reversal_balance: null,
    });
    const sent = posts('/v1/transfers');
    expect(sent.map((r) => [r.idempotency_key, r.replayed])).toEqual([
      [`payout-${invoiceId}`, false],
      [`payout-${invoiceId}`, true],
    ]);
    expect(sent[0].params).toMatchObject({
      amount: '405000',
      currency: 'usd',
      destination: account.id,
      transfer_group: invoiceId,
      source_transaction: captured.charge_id,
      metadata: { invoice_id: invoiceId },
    });
    expect(standIn.connect.balanceTransactions().filter((t) => t.source === transfer.id)).toEqual([
      expect.objectContaining({ id: transfer.balance?.id, type: 'transfer', amount: -405_000, fee: 0, net: -405_000 }),
    ]);
    const [created] = eventsFor('transfer.created', transfer.id);
    expect(eventsFor('transfer.created', transfer.id)).toHaveLength(1);
    expect(providerEventOf(created)).toEqual({ id: created.id, type: 'transfer.created', transfer_id: transfer.id, at: new Date(created.created * 1000) });
    // Without a source charge, none is sent: the transfer is paid from the available balance.
    const unsourced = await provider.connect.createTransfer(transferInput(account.id, { transfer_group: 'unsourced' }));
    expect(posts('/v1/transfers').at(-1)?.params.source_transaction).toBeUndefined();
    expect(unsourced.transfer_group).toBe('unsourced');
  });

  it('refuses to pay an account that cannot take payouts (not onboarded, verifying, restricted): account_unable, and nothing moves', async () => {
    const accounts = [await newAccount(), await newAccount(), await newAccount()];
    standIn.completeOnboarding(accounts[1].id, 'pending_verification');
    standIn.completeOnboarding(accounts[2].id, 'restricted');
    const balanceBefore = standIn.connect.balanceTransactions().length;
    for (const account of accounts) {
      const refusal = await provider.connect.createTransfer(transferInput(account.id)).then(() => null, (error: unknown) => error);
      expect(refusal).toBeInstanceOf(ProviderError);
      expect(refusal).toMatchObject({ code: 'account_unable' });
    }
    expect(standIn.events.filter((e) => e.type === 'transfer.created' && accounts.some((a) => a.id === e.data.object.destination))).toEqual([]);
    expect(standIn.connect.balanceTransactions()).toHaveLength(balanceBefore);
    await expect(provider.connect.createTransfer(transferInput('acct_missing'))).rejects.toEqual(new ProviderError('not_found', 'No such destination account: acct_missing'));
  });

  it('finds the first transfer of a group, and reads a reversal with its balance entry', async () => {
    const account = await enabledAccount();
    const group = `invoice-${++sequence}`;
    expect(await provider.connect.findTransfer(group)).toBeNull();
    const now = Math.floor(Date.now() / 1000);
    standIn.clock = now - 60;
    const first = await provider.connect.createTransfer(transferInput(account.id, { transfer_group: group, amount_cents: 1_000 }));
    standIn.clock = now;
    // A second transfer in the group (another key): the first made is the one the group answers.
    await provider.connect.createTransfer(transferInput(account.id, { transfer_group: group, amount_cents: 2_000 }));
    standIn.clock = null;
    expect(await provider.connect.findTransfer(group)).toEqual(first);
    expect(standIn.requests.filter((r) => r.method === 'GET' && r.path === '/v1/transfers').at(-1)?.params).toEqual({ transfer_group: group, limit: '100' });

    const reversal = standIn.reverseTransfer(first.id);
    const read = (await provider.connect.retrieveTransfer(first.id)) as ProviderTransfer;
    expect(read).toEqual({
      ...first,
      reversed: true,
      reversal_balance: { id: reversal.balance_transaction, amount_cents: 1_000, fee_cents: 0, net_cents: 1_000, created_at: new Date(reversal.created * 1000) },
    });
    expect(standIn.connect.balanceTransactions().find((t) => t.id === reversal.balance_transaction)).toMatchObject({ type: 'transfer_refund', source: reversal.id });
    const [reversed] = eventsFor('transfer.reversed', first.id);
    expect(reversed.data.object).toMatchObject({ reversed: true, amount_reversed: 1_000 });
    expect(providerEventOf(reversed)).toEqual({ id: reversed.id, type: 'transfer.reversed', transfer_id: first.id, at: new Date(reversed.created * 1000) });
    expect(await provider.connect.retrieveTransfer('tr_missing')).toBeNull();
  });

  it('reads the capture and the refund as balance entries of the intent: gross, the 2.9% + 30¢ fee, net; the refund negative', async () => {
    const intent = await provider.createIntent({ amount_cents: 450_000, currency: 'usd', idempotency_key: key('intent'), metadata: {} });
    expect(intent).toMatchObject({ charge_id: null, capture_balance: null, refund_balance: null });
    standIn.authorize(intent.id);
    const held = await provider.retrieve(intent.id);
    expect(held).toMatchObject({ status: 'requires_capture', charge_id: standIn.intent(intent.id).latest_charge, capture_balance: null, refund_balance: null });

    const captured = await provider.capture(intent.id);
    expect(captured.capture_balance).toEqual({
      id: expect.stringMatching(/^txn_/),
      amount_cents: 450_000,
      fee_cents: 13_080,
      net_cents: 436_920,
      created_at: captured.captured_at,
    });
    expect(captured.refund_balance).toBeNull();

    const refunded = await provider.refund(intent.id);
    const refundObject = standIn.events.filter((e) => e.type === 'charge.refunded').at(-1) as Stripe.Event;
    const refund = (refundObject.data.object as Stripe.Charge).refunds?.data[0] as Stripe.Refund;
    expect(refunded.capture_balance).toEqual(captured.capture_balance);
    expect(refunded.refund_balance).toEqual({ id: refund.balance_transaction, amount_cents: -450_000, fee_cents: 0, net_cents: -450_000, created_at: refunded.refunded_at });
    expect(standIn.connect.balanceTransactions().find((t) => t.id === refund.balance_transaction)).toMatchObject({ type: 'refund', source: refund.id });
    expect(providerEventOf(refundObject)).toEqual({ id: refundObject.id, type: 'charge.refunded', intent_id: intent.id, at: new Date(refundObject.created * 1000) });

    // The fee rounds half up (500¢: 14.5 -> 15) and never exceeds the amount.
    for (const [amount, fee] of [
      [500, 45],
      [1_000, 59],
      [20, 20],
    ]) {
      expect((await capturedCharge(amount)).capture_balance).toMatchObject({ amount_cents: amount, fee_cents: fee, net_cents: amount - fee });
    }

    // A released hold moved no money: no balance entries, though Stripe marks its charge refunded.
    const hold = await provider.createIntent({ amount_cents: 10_000, currency: 'usd', idempotency_key: key('intent'), metadata: {} });
    standIn.authorize(hold.id);
    expect(await provider.refund(hold.id)).toMatchObject({ status: 'canceled', charge_id: expect.stringMatching(/^ch_/), capture_balance: null, refund_balance: null });
  });

  it('lists exactly the balance transactions created in [from, to), a page of 100 at a time, following starting_after', async () => {
    const account = await enabledAccount();
    // Placed a day ahead, clear of what the other tests made; two transactions share each second inside.
    const from = Math.floor(Date.now() / 1000) + 86_400;
    const to = from + 125;
    const made = async (second: number) => {
      standIn.clock = second;
      return (await provider.connect.createTransfer(transferInput(account.id, { amount_cents: 100 + (second - from) }))).balance?.id as string;
    };
    const inside: string[] = [];
    try {
      for (const second of [from - 3, from - 1]) await made(second);
      for (let i = 0; i < 250; i++) inside.push(await made(from + Math.floor(i / 2)));
      for (const second of [to, to + 1]) await made(second);
    } finally {
      standIn.clock = null;
    }

    const pages = [];
    for await (const page of provider.connect.balanceTransactions(new Date(from * 1000), new Date(to * 1000))) pages.push(page);
    expect(pages.map((page) => page.length)).toEqual([100, 100, 50]);
    const listed = pages.flat();
    expect(new Set(listed.map((t) => t.id)).size).toBe(250);
    expect(listed.map((t) => t.id).sort()).toEqual([...inside].sort());
    // Newest first, as Stripe lists them.
    expect(listed.map((t) => t.created_at.getTime())).toEqual(listed.map((t) => t.created_at.getTime()).sort((a, b) => b - a));
    expect(listed.at(-1)).toEqual({
      id: inside[0],
      type: 'transfer',
      source_id: expect.stringMatching(/^tr_/),
      amount_cents: -100,
      fee_cents: 0,
      net_cents: -100,
      created_at: new Date(from * 1000),
    });

    const asked = standIn.requests.filter((r) => r.path === '/v1/balance_transactions').map((r) => r.params);
    expect(asked).toEqual([
      { created: { gte: String(from), lt: String(to) }, limit: '100' },
      { created: { gte: String(from), lt: String(to) }, limit: '100', starting_after: pages[0][99].id },
      { created: { gte: String(from), lt: String(to) }, limit: '100', starting_after: pages[1][99].id },
    ]);
  });

  describe('webhooks: payout events and the Connect endpoint’s secret', () => {
    const received: ProviderEvent[] = [];
    const router = {
      handle: async (notice: ProviderEvent) => {
        received.push(notice);
        return 'applied' as const;
      },
    } as unknown as ProviderEventsRouter;
    const webhooks = (secrets: { STRIPE_WEBHOOK_SECRET: string; STRIPE_CONNECT_WEBHOOK_SECRET?: string }) =>
      new StripeWebhooks({} as never, router, {} as never, {} as never, provider, secrets);
    const signed = (event: object, secret: string, timestamp?: number) => {
      const payload = JSON.stringify(event);
      return [Buffer.from(payload).toString('base64'), provider.stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp })] as const;
    };
    const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

    it('accepts a connected account’s account.updated signed with the Connect secret, and a transfer’s event with the platform’s', async () => {
      const account = await newAccount();
      standIn.completeOnboarding(account.id, 'complete');
      const [updated] = eventsFor('account.updated', account.id);
      const transfer = await provider.connect.createTransfer(transferInput(account.id));
      const [created] = eventsFor('transfer.created', transfer.id);
      const both = webhooks({ STRIPE_WEBHOOK_SECRET: PLATFORM_SECRET, STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET });

      received.length = 0;
      expect(await both.receive(...signed(updated, CONNECT_SECRET))).toEqual({ received: true, result: 'applied' });
      expect(await both.receive(...signed(created, PLATFORM_SECRET))).toEqual({ received: true, result: 'applied' });
      expect(received).toEqual([
        { id: updated.id, type: 'account.updated', account_id: account.id, at: new Date(updated.created * 1000) },
        { id: created.id, type: 'transfer.created', transfer_id: transfer.id, at: new Date(created.created * 1000) },
      ]);
    });

    it('refuses a delivery no configured secret signed, or one signed too long ago, with the reason; changes nothing', async () => {
      const account = await newAccount();
      standIn.completeOnboarding(account.id, 'restricted');
      const [updated] = eventsFor('account.updated', account.id);
      const both = webhooks({ STRIPE_WEBHOOK_SECRET: PLATFORM_SECRET, STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET });
      const platformOnly = webhooks({ STRIPE_WEBHOOK_SECRET: PLATFORM_SECRET });
      received.length = 0;

      const stranger = await refusal(both.receive(...signed(updated, 'whsec_someone_else')));
      expect(stranger).toBeInstanceOf(AppError);
      expect(stranger).toMatchObject({ status: 400, detail: expect.stringMatching(/^Webhook signature verification failed: No signatures found matching/) });
      // The Connect secret matched, but the delivery is older than Stripe's 300 s tolerance: that is the reason told.
      const stale = await refusal(both.receive(...signed(updated, CONNECT_SECRET, Math.floor(Date.now() / 1000) - 301)));
      expect(stale).toMatchObject({ status: 400, detail: 'Webhook signature verification failed: Timestamp outside the tolerance zone' });
      // Without STRIPE_CONNECT_WEBHOOK_SECRET only the platform's secret is tried.
      expect(await refusal(platformOnly.receive(...signed(updated, CONNECT_SECRET)))).toMatchObject({ status: 400 });
      expect(received).toEqual([]);
    });

    it('maps only the types billing uses, and only when the object is what the type names', () => {
      const base = { id: 'evt_1', object: 'event', created: 1_700_000_000, api_version: '2025-01-01', livemode: false, pending_webhooks: 1, request: null };
      const event = (type: string, object: object) => ({ ...base, type, data: { object } }) as unknown as Stripe.Event;
      expect(providerEventOf(event('account.updated', { id: 'acct_1', object: 'account' }))).toMatchObject({ account_id: 'acct_1' });
      expect(providerEventOf(event('account.updated', { id: 'tr_1', object: 'transfer' }))).toBeNull();
      expect(providerEventOf(event('transfer.reversed', { id: 'acct_1', object: 'account' }))).toBeNull();
      expect(providerEventOf(event('transfer.updated', { id: 'tr_1', object: 'transfer' }))).toBeNull();
      expect(providerEventOf(event('account.application.deauthorized', { id: 'ca_1', object: 'application' }))).toBeNull();
      expect(providerEventOf(event('payment_intent.succeeded', { id: 'pi_1', object: 'payment_intent' }))).toEqual({
        id: 'evt_1',
        type: 'payment_intent.succeeded',
        intent_id: 'pi_1',
        at: new Date(1_700_000_000_000),
      });
    });
  });
});
