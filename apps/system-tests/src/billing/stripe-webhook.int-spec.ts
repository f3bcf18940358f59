import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import express from 'express';
import type { INestApplication } from '@nestjs/common';
import type { Actor } from '@market/contracts';
import { createServiceApp, parseEnvOrThrow } from '@market/server-kit';
import { busEnvOf, closeAll } from '@market/server-kit/testing';
import { jsonBody } from '../../../gateway/src/http/body-parsing';
import { get, post, startStack, type Stack } from '../support/start-stack';
import { billingEnv } from '../../../billing-service/src/billing.config';
import { billingAppModule } from '../../../billing-service/src/app.module';
import { InvoicesRepository } from '../../../billing-service/src/invoices/invoices.repository';
import { PaymentsService } from '../../../billing-service/src/payments/payments.service';
import { PaymentIntentsRepository } from '../../../billing-service/src/payments/payment-intents.repository';
import { PAYMENT_PROVIDER } from '../../../billing-service/src/payments/payment-provider';
import { StripeProvider } from '../../../billing-service/src/payments/stripe-provider';
import { StripeStandIn } from '../../../billing-service/src/payments/testing/stripe-stand-in';
import { PayoutAccountsService } from '../../../billing-service/src/payouts/payout-accounts.service';
import { PayoutsRepository } from '../../../billing-service/src/payouts/payouts.repository';
import { EscrowSweep } from '../../../billing-service/src/payouts/escrow.sweep';
import { TransferService } from '../../../billing-service/src/transfer/transfer.service';

const SECRET = 'whsec_gateway_stand_in';
const CONNECT_SECRET = 'whsec_gateway_connect_stand_in';

describe('POST /api/webhooks/stripe (ADR 0023)', () => {
  describe('body parsing: the exact bytes for this route only', () => {
    let server: Server;
    let base: string;

    beforeAll(async () => {
      const app = express();
      app.use(...jsonBody());
      const echo: express.RequestHandler = (req, res) =>
        res.json({ raw: Buffer.isBuffer(req.body), hex: Buffer.isBuffer(req.body) ? req.body.toString('hex') : null, body: Buffer.isBuffer(req.body) ? null : req.body });
      app.post('/api/webhooks/stripe', echo);
      app.post('/api/other', echo);
      server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('keeps the webhook body byte for byte (spacing, key order, non-ASCII), and still parses JSON elsewhere', async () => {
      const payload = Buffer.from('{ "id": "evt_1",\n  "type":"payment_intent.succeeded", "note": "caf\u00e9 \u2713" }\n', 'utf8');
      for (const path of ['/api/webhooks/stripe', '/api/webhooks/stripe/']) {
        const answer = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: payload });
        expect(await answer.json()).toEqual({ raw: true, hex: payload.toString('hex'), body: null });
      }
      const other = await fetch(`${base}/api/other`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
      expect(await other.json()).toEqual({ raw: false, hex: null, body: { id: 'evt_1', type: 'payment_intent.succeeded', note: 'caf\u00e9 \u2713' } });
    });

    it('refuses a webhook body over the raw limit with 413 {detail}', async () => {
      const answer = await fetch(`${base}/api/webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(701 * 1024) });
      expect(answer.status).toBe(413);
      expect(await answer.json()).toMatchObject({ detail: 'Request body is larger than 700kb' });
    });
  });

  describe('through the gateway to billing (sandbox provider)', () => {
    let stack: Stack;
    beforeAll(async () => {
      stack = await startStack({ services: ['billing'] });
    });
    afterAll(async () => {
      await stack?.stop();
    });

    it('needs no login; without a signature it is a 400, and with the sandbox provider a 404', async () => {
      const url = `${stack.url}/api/webhooks/stripe`;
      expect(await post(url, '{"id":"evt_1"}')).toMatchObject({ status: 400, body: { detail: 'Missing Stripe-Signature header' } });
      expect(await post(url, '{"id":"evt_1"}', { 'stripe-signature': 't=1,v1=00' })).toMatchObject({ status: 404, body: { detail: 'Not found' } });
    });
  });

  describe('through the gateway to billing with the Stripe provider (a stand-in of Stripe behind the real SDK)', () => {
    const standIn = new StripeStandIn();
    let stack: Stack;
    let billing: INestApplication;
    let stripe: StripeProvider['stripe'];
    let port = 0;
    beforeAll(async () => {
      port = await standIn.start();
      // The stack's billing parses only the common variables, so this billing (with Stripe's) is started here.
      stack = await startStack({ services: [] });
      const config = parseEnvOrThrow(billingEnv, {
        ...busEnvOf(stack.env, 'billing-service'),
        STRIPE_SECRET_KEY: 'sk_test_stand_in',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_stand_in',
        STRIPE_WEBHOOK_SECRET: SECRET,
        STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET,
        STRIPE_API_HOST: '127.0.0.1',
        STRIPE_API_PORT: String(port),
        STRIPE_API_PROTOCOL: 'http',
      });
      billing = await createServiceApp({ service: 'billing-service', module: billingAppModule(config), config, defaultHealthPort: 0, healthPort: 0 });
      stripe = (billing.get(PAYMENT_PROVIDER) as StripeProvider).stripe;
    });
    afterAll(async () => {
      await closeAll(billing);
      await stack?.stop();
      await standIn.stop();
    });

    it('tells every page that real money moves: no TEST MODE banner (ADR 0033)', async () => {
      expect((await get(`${stack.url}/api/site`)).body).toEqual({ payments: { provider: 'stripe', test_mode: false } });
    });

    it('verifies the exact bytes: a signed event holds the payment once; a bad or 301 s old signature is a 400', async () => {
      expect(billing.get(PAYMENT_PROVIDER)).toBeInstanceOf(StripeProvider);
      const buyer: Actor = { user_id: randomUUID(), role: 'regular' };
      const { invoice } = await billing.get(InvoicesRepository).createForSale(
        { bid_id: randomUUID(), listing_id: randomUUID(), buyer_id: buyer.user_id, seller_id: randomUUID(), website_title: 'Recipe blog',
          website_url: null, sale_type: 'buy_now', amount: 4500, success_fee_percent: 0 },
        new Date(),
      );
      const created = await billing.get(PaymentsService).createPayment(buyer, invoice.id);
      const intents = billing.get(PaymentIntentsRepository);
      standIn.authorize((await intents.findById(created.payment_intent_id))?.provider_intent_id as string);
      // Stripe's own formatting: the signature covers these bytes, so re-serialised JSON would not verify.
      const payload = JSON.stringify(standIn.events.at(-1), null, 2);
      const url = `${stack.url}/api/webhooks/stripe`;
      const send = (signature: string) => post(url, payload, { 'stripe-signature': signature });

      const stale = stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp: Math.floor(Date.now() / 1000) - 301 });
      for (const signature of [stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' }), stale]) {
        expect(await send(signature)).toMatchObject({ status: 400, body: { detail: expect.stringMatching(/^Webhook signature verification failed: /) } });
      }
      expect((await intents.findById(created.payment_intent_id))?.status).toBe('requires_payment_method');

      const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
      expect(await send(signature)).toMatchObject({ status: 200, body: { received: true, result: 'applied' } });
      expect(await send(signature)).toMatchObject({ status: 200, body: { received: true, result: 'duplicate' } });
      expect((await intents.findById(created.payment_intent_id))?.status).toBe('requires_capture');
    });

    it('pays the seller through Connect once, even when Stripe is unreachable in the middle of the payout (D22)', async () => {
      const buyer: Actor = { user_id: randomUUID(), role: 'regular' };
      const seller: Actor = { user_id: randomUUID(), role: 'regular' };
      const admin: Actor = { user_id: randomUUID(), role: 'admin' };
      const { invoice } = await billing.get(InvoicesRepository).createForSale(
        { bid_id: randomUUID(), listing_id: randomUUID(), buyer_id: buyer.user_id, seller_id: seller.user_id, website_title: 'Recipe blog',
          website_url: null, sale_type: 'buy_now', amount: 1200, success_fee_percent: 5 },
        new Date(),
      );
      const deliver = (event: object, secret = SECRET) => {
        const payload = JSON.stringify(event);
        return post(`${stack.url}/api/webhooks/stripe`, payload, { 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret }) });
      };
      const created = await billing.get(PaymentsService).createPayment(buyer, invoice.id);
      const intentId = (await billing.get(PaymentIntentsRepository).findById(created.payment_intent_id))?.provider_intent_id as string;
      standIn.authorize(intentId);
      expect((await deliver(standIn.events.at(-1) as object)).body.result).toBe('applied');
      // The seller starts the transfer: the hold is captured into escrow through the SDK.
      await billing.get(TransferService).markTransferStarted(seller, invoice.id);
      expect(standIn.intent(intentId).status).toBe('succeeded');

      // Onboarding on Stripe's hosted page; account.updated comes through the Connect endpoint with its own secret.
      const { url } = await billing.get(PayoutAccountsService).onboarding(seller);
      expect(url).toMatch(/^https?:\/\//);
      const [account] = standIn.connect.allAccounts();
      standIn.completeOnboarding(account.id, 'complete');
      const accountEvent = standIn.events.filter((e) => e.type === 'account.updated').at(-1) as object;
      expect(await deliver(accountEvent, 'whsec_not_ours')).toMatchObject({ status: 400 });
      expect((await deliver(accountEvent, CONNECT_SECRET)).body.result).toBe('applied');
      expect(await billing.get(PayoutAccountsService).get(seller)).toEqual({ status: 'enabled', requirements_due: [] });

      // Stripe goes away just as the admin releases the funds: they stay held, the invoice unpaid.
      await standIn.stop();
      const released = await billing.get(PaymentsService).capture(admin, created.payment_intent_id, {});
      expect(released.message).toMatch(/could not be sent just now/);
      expect(await billing.get(PayoutsRepository).findByInvoice(invoice.id)).toMatchObject({ status: 'pending', attempts: 1 });
      expect((await billing.get(InvoicesRepository).findById(invoice.id))?.status).toBe('payment_authorized');

      // Back: the sweep sends it under the same key; the seller gets the net once.
      await standIn.start(port);
      await billing.get(EscrowSweep).sweep();
      await billing.get(EscrowSweep).sweep();
      const transfers = standIn.connect.allTransfers().filter((t) => t.transfer_group === invoice.id);
      expect(transfers.map((t) => [t.amount, t.destination])).toEqual([[114_000, account.id]]);
      expect((await billing.get(InvoicesRepository).findById(invoice.id))?.status).toBe('paid');
      expect(await billing.get(PayoutsRepository).findByInvoice(invoice.id)).toMatchObject({ status: 'paid', provider_transfer_id: transfers[0].id });
    });
  });
});
