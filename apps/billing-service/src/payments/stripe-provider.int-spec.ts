import { ProviderError } from './payment-provider';
import { StripeProvider, stripeClient } from './stripe-provider';
import { StripeStandIn } from './testing/stripe-stand-in';

const invoice = { id: '6c1f4f0e-3d5a-4a43-9d67-1c2b3a4d5e6f', invoice_number: 'INV-000042', website_title: 'Recipe blog', amount_cents: 450_000 };
const metadata = { invoice_id: invoice.id, invoice_number: invoice.invoice_number, website_title: invoice.website_title };

describe('StripeProvider through the official SDK against a stand-in of Stripe (ADR 0023)', () => {
  const standIn = new StripeStandIn();
  let provider: StripeProvider;
  let key = 0;
  const newIntent = () =>
    provider.createIntent({ amount_cents: invoice.amount_cents, currency: 'usd', idempotency_key: `invoice-${invoice.id}-attempt-${++key}`, metadata });

  beforeAll(async () => {
    const port = await standIn.start();
    provider = new StripeProvider(
      stripeClient({ STRIPE_SECRET_KEY: 'sk_test_stand_in', STRIPE_API_HOST: '127.0.0.1', STRIPE_API_PORT: port, STRIPE_API_PROTOCOL: 'http' }),
    );
  });
  afterAll(() => standIn.stop());

  it('creates a manual-capture intent in cents and usd with the invoice metadata; a repeated key answers the same intent', async () => {
    const first = await provider.createIntent({ amount_cents: 450_000, currency: 'usd', idempotency_key: 'invoice-x-attempt-1', metadata });
    const again = await provider.createIntent({ amount_cents: 450_000, currency: 'usd', idempotency_key: 'invoice-x-attempt-1', metadata });
    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({ status: 'requires_payment_method', amount_cents: 450_000, currency: 'usd', authorized_at: null, last_error: null });
    expect(first.client_secret).toMatch(new RegExp(`^${first.id}_secret_`));
    const creates = standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    expect(creates.map((r) => [r.idempotency_key, r.replayed])).toEqual([
      ['invoice-x-attempt-1', false],
      ['invoice-x-attempt-1', true],
    ]);
    expect(creates[0].params).toEqual({ amount: '450000', currency: 'usd', capture_method: 'manual', metadata });
    expect(standIn.intent(first.id).capture_method).toBe('manual');
  });

  it('reads the hold, captures it once, refunds it once, every call under its own idempotency key', async () => {
    const intent = await newIntent();
    standIn.authorize(intent.id);
    const held = await provider.retrieve(intent.id);
    expect(held).toMatchObject({ status: 'requires_capture', captured_at: null, refunded_at: null });
    expect(held?.authorized_at).toBeInstanceOf(Date);

    const captured = await provider.capture(intent.id);
    expect(captured).toMatchObject({ status: 'succeeded', authorized_at: held?.authorized_at, refunded_at: null });
    expect(captured.captured_at).toBeInstanceOf(Date);
    // A retried capture is the same capture: Stripe replays the first answer for the key, nothing is captured twice.
    expect(await provider.capture(intent.id)).toEqual(captured);
    const captures = standIn.requests.filter((r) => r.path === `/v1/payment_intents/${intent.id}/capture`);
    expect(captures.map((r) => [r.idempotency_key, r.replayed])).toEqual([
      [`${intent.id}-capture`, false],
      [`${intent.id}-capture`, true],
    ]);
    // Once Stripe has forgotten the key (24 h), the intent's state refuses it.
    standIn.forgetIdempotencyKeys();
    await expect(provider.capture(intent.id)).rejects.toEqual(new ProviderError('already_captured', 'This payment has already been captured.'));

    const refunded = await provider.refund(intent.id);
    expect(refunded.status).toBe('succeeded');
    expect(refunded.refunded_at).toBeInstanceOf(Date);
    await expect(provider.refund(intent.id)).rejects.toEqual(new ProviderError('already_refunded', 'This payment has already been refunded.'));
    await expect(provider.cancel(intent.id, 'requested_by_customer')).rejects.toMatchObject({ code: 'not_refundable' });
    const refunds = standIn.requests.filter((r) => r.path === '/v1/refunds' && r.params.payment_intent === intent.id);
    expect(refunds.map((r) => r.idempotency_key)).toEqual([`${intent.id}-refund`]);
  });

  it('cancels an uncaptured intent; refunding a hold releases it by canceling; a lapsed hold reads back as expired', async () => {
    const unpaid = await newIntent();
    const canceled = await provider.cancel(unpaid.id, 'requested_by_customer');
    expect(canceled).toMatchObject({ status: 'canceled', cancellation_reason: 'requested_by_customer', authorized_at: null });
    expect(canceled.canceled_at).toBeInstanceOf(Date);
    await expect(provider.capture(unpaid.id)).rejects.toEqual(
      new ProviderError('not_capturable', 'This payment cannot be captured because it has a status of canceled.'),
    );

    const hold = await newIntent();
    standIn.authorize(hold.id);
    const released = await provider.refund(hold.id);
    expect(released).toMatchObject({ status: 'canceled', refunded_at: null, captured_at: null, cancellation_reason: 'requested_by_customer' });
    expect(standIn.requests.at(-2)).toMatchObject({ path: `/v1/payment_intents/${hold.id}/cancel`, idempotency_key: `${hold.id}-cancel-requested_by_customer` });

    const lapsed = await newIntent();
    standIn.authorize(lapsed.id);
    expect(await provider.cancel(lapsed.id, 'expired')).toMatchObject({ status: 'canceled', cancellation_reason: 'expired' });
    expect(standIn.intent(lapsed.id).cancellation_reason).toBe('abandoned');
  });

  it('reads a declined card as the intent waiting for another card, with the error; an unknown intent is null', async () => {
    const intent = await newIntent();
    standIn.decline(intent.id, 'Your card has insufficient funds.');
    expect(await provider.retrieve(intent.id)).toMatchObject({ status: 'requires_payment_method', last_error: 'Your card has insufficient funds.', authorized_at: null });
    expect(await provider.retrieve('pi_missing')).toBeNull();
    await expect(provider.capture('pi_missing')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('makes a Checkout Session for the invoice: payment mode, manual capture, success and cancel addresses, one per key', async () => {
    const input = {
      intent_id: null,
      invoice,
      idempotency_key: `invoice-${invoice.id}-attempt-1-checkout`,
      success_url: `https://market.example/payment-success?session_id={CHECKOUT_SESSION_ID}&invoice_id=${invoice.id}`,
      cancel_url: `https://market.example/payment-cancel?invoice_id=${invoice.id}`,
    };
    const session = await provider.createCheckoutSession(input);
    expect(session.url).toBe(`https://checkout.stand-in.test/c/pay/${session.id}`);
    expect(await provider.createCheckoutSession(input)).toEqual(session);
    const sent = standIn.requests.filter((r) => r.path === '/v1/checkout/sessions');
    expect(sent.map((r) => r.idempotency_key)).toEqual([input.idempotency_key, input.idempotency_key]);
    expect(sent[0].params).toMatchObject({
      mode: 'payment',
      payment_intent_data: { capture_method: 'manual', metadata },
      metadata,
      success_url: input.success_url,
      cancel_url: input.cancel_url,
      line_items: [{ quantity: '1', price_data: { currency: 'usd', unit_amount: '450000' } }],
    });

    const made = standIn.completeCheckout(session.id);
    expect(await provider.retrieve(made.id)).toMatchObject({ status: 'requires_capture', amount_cents: 450_000 });
    expect(made).toMatchObject({ capture_method: 'manual', metadata });
  });
});
