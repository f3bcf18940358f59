import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { ApiError, ConnectStandIn, id, missing, standInCardFee, type Json, type StandInOnboardingOutcome } from './stripe-connect.stand-in';

/** One API call as the stand-in saw it: for asserting what the SDK sent (idempotency keys, parameters). */
export interface StandInRequest {
  method: string;
  path: string;
  idempotency_key: string | null;
  params: Json;
  replayed: boolean;
}

const unexpected = (intent: Json, action: string) =>
  new ApiError(400, {
    type: 'invalid_request_error',
    code: 'payment_intent_unexpected_state',
    message: `This PaymentIntent could not be ${action} because it has a status of ${intent.status}.`,
  });

/** Form fields as the SDK encodes them (`a[b][0][c]=v`) into nested objects; numeric keys make arrays. */
export function parseForm(text: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node = root;
    path.forEach((part, i) => {
      // `a[]=v` appends: numbered after what is there.
      const name = part === '' ? String(Object.keys(node).length) : part;
      if (i === path.length - 1) node[name] = value;
      else node = node[name] ??= {};
    });
  }
  const arrays = (value: unknown): unknown => {
    if (!value || typeof value !== 'object') return value;
    const entries = Object.entries(value).map(([k, v]) => [k, arrays(v)] as const);
    return entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k)) ? entries.map(([, v]) => v) : Object.fromEntries(entries);
  };
  return arrays(root) as Json;
}

/**
 * A tiny stand-in of Stripe's API for tests (ADR 0023): the endpoints StripeProvider uses, form-encoded as the SDK
 * sends them, Stripe's manual-capture states, and its idempotency (a repeated Idempotency-Key replays the first
 * answer; other parameters under it are an error). What the buyer does in Stripe.js or on Checkout's page is done by
 * the helper methods (authorize, decline, requireAction, completeCheckout, completeOnboarding, reverseTransfer). Its
 * Connect side (accounts, Account Links, transfers, balance transactions) is in stripe-connect.stand-in.ts: a capture,
 * refund, transfer or reversal leaves its balance transaction there. Every change records the event Stripe would send
 * (`events`), for tests to deliver as signed webhooks.
 */
export class StripeStandIn {
  readonly requests: StandInRequest[] = [];
  readonly events: Json[] = [];
  private readonly intents = new Map<string, Json>();
  private readonly charges = new Map<string, Json>();
  private readonly sessions = new Map<string, Json>();
  private readonly sessionIntentData = new Map<string, Json>();
  private readonly answers = new Map<string, { fingerprint: string; status: number; body: Json }>();
  private server: Server | null = null;
  /** Seconds added to the stand-in's clock (Stripe's timestamps are whole seconds). */
  clockOffset = 0;
  /** When set, the stand-in's clock stands at this Unix second (what a test places in a time window stays there). */
  clock: number | null = null;
  /** Connected accounts, transfers and the platform's balance transactions (D22). */
  readonly connect = new ConnectStandIn(
    { now: () => this.now(), emit: (type, object, account) => this.emit(type, object, account) },
    (chargeId) => this.charges.get(chargeId),
  );

  /** Starts listening on 127.0.0.1 at `port` (a free one by default, or the one it had, to come back after an outage); answers the port. */
  async start(port = 0): Promise<number> {
    this.server = createServer((req, res) => void this.serve(req, res));
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // The SDK keeps connections alive; close them so the server can stop.
    server.closeAllConnections();
    await closed;
  }

  /** The buyer's card is authorised (Stripe.js confirmCardPayment with 4242): the hold is made. */
  authorize(intentId: string): Json {
    const intent = this.intent(intentId);
    const charge = { id: id('ch'), object: 'charge', amount: intent.amount, created: this.now(), paid: true, captured: false, refunded: false,
      amount_refunded: 0, status: 'succeeded', payment_intent: intent.id, balance_transaction: null, refunds: [] as Json[] };
    this.charges.set(charge.id, charge);
    Object.assign(intent, { status: 'requires_capture', latest_charge: charge.id, amount_capturable: intent.amount, last_payment_error: null });
    this.emit('payment_intent.amount_capturable_updated', intent);
    return intent;
  }

  /** The buyer's card is declined: the intent waits for another card, with the error. */
  decline(intentId: string, message = 'Your card was declined.'): Json {
    const intent = this.intent(intentId);
    const charge = { id: id('ch'), object: 'charge', amount: intent.amount, created: this.now(), paid: false, captured: false, refunded: false,
      amount_refunded: 0, status: 'failed', payment_intent: intent.id, balance_transaction: null, refunds: [] as Json[] };
    this.charges.set(charge.id, charge);
    Object.assign(intent, { status: 'requires_payment_method', latest_charge: charge.id, last_payment_error: { code: 'card_declined', message } });
    this.emit('payment_intent.payment_failed', intent);
    return intent;
  }

  /** The card needs 3-D Secure. */
  requireAction(intentId: string): Json {
    const intent = this.intent(intentId);
    Object.assign(intent, { status: 'requires_action', last_payment_error: null });
    this.emit('payment_intent.requires_action', intent);
    return intent;
  }

  /** The buyer pays on Checkout's page: Checkout makes its intent, the card is authorised, the session completes. */
  completeCheckout(sessionId: string): Json {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    const data = this.sessionIntentData.get(sessionId) ?? {};
    const intent = this.createIntent({ amount: session.amount_total, currency: session.currency, capture_method: data.capture_method ?? 'automatic', metadata: data.metadata ?? {} });
    this.authorize(intent.id);
    Object.assign(session, { status: 'complete', payment_intent: intent.id });
    this.emit('checkout.session.completed', session);
    return intent;
  }

  /** The seller finishes Stripe's hosted onboarding with this outcome; account.updated is recorded. */
  completeOnboarding(accountId: string, outcome: StandInOnboardingOutcome): Json {
    return this.connect.completeOnboarding(accountId, outcome);
  }

  /** The whole transfer is reversed (as from the Dashboard); transfer.reversed is recorded; answers the reversal. */
  reverseTransfer(transferId: string): Json {
    return this.connect.reverseTransfer(transferId);
  }

  /** Forgets every idempotency key, as Stripe does after 24 hours. */
  forgetIdempotencyKeys(): void {
    this.answers.clear();
  }

  /** An intent as stored (for assertions). */
  intent(intentId: string): Json {
    const intent = this.intents.get(intentId);
    if (!intent) throw missing('payment_intent', intentId);
    return intent;
  }

  private now(): number {
    return this.clock ?? Math.floor(Date.now() / 1000) + this.clockOffset;
  }

  /** Records an event; `account` is the connected account a Connect event is about (Stripe's `account` field). */
  private emit(type: string, object: Json, account?: string): void {
    const snapshot = object.object === 'payment_intent' ? this.expanded(object, []) : structuredClone(object);
    this.events.push({ id: id('evt'), object: 'event', api_version: '2025-01-01', created: this.now(), livemode: false, pending_webhooks: 1,
      request: { id: null, idempotency_key: null }, type, data: { object: snapshot }, ...(account ? { account } : {}) });
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const method = req.method ?? 'GET';
    const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
    const params = parseForm(method === 'GET' ? url.search.slice(1) : body);
    const fingerprint = `${method} ${url.pathname} ${body}`;
    const previous = key ? this.answers.get(key) : undefined;
    this.requests.push({ method, path: url.pathname, idempotency_key: key, params, replayed: Boolean(previous) });
    let status = 200;
    let answer: Json;
    if (previous && previous.fingerprint !== fingerprint) {
      status = 400;
      answer = { error: { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with.` } };
    } else if (previous) {
      ({ status, body: answer } = previous);
      res.setHeader('Idempotent-Replayed', 'true');
    } else {
      try {
        if (!String(req.headers.authorization ?? '').startsWith('Bearer sk_')) throw new ApiError(401, { type: 'invalid_request_error', message: 'Invalid API Key provided' });
        answer = this.route(method, url.pathname, params);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        status = error.status;
        answer = { error: error.body };
      }
      if (key && method === 'POST') this.answers.set(key, { fingerprint, status, body: answer });
    }
    res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': id('req') });
    res.end(JSON.stringify(answer));
  }

  private route(method: string, path: string, params: Json): Json {
    const expand: string[] = params.expand ?? [];
    if (method === 'POST' && path === '/v1/payment_intents') return this.createIntent(params);
    if (method === 'POST' && path === '/v1/refunds') return this.refund(params);
    if (method === 'POST' && path === '/v1/checkout/sessions') return this.createSession(params);
    const match = /^\/v1\/payment_intents\/([^/]+)(?:\/(capture|cancel))?$/.exec(path);
    if (match && method === 'GET' && !match[2]) return this.expanded(this.intent(match[1]), expand);
    if (match && method === 'POST' && match[2] === 'capture') return this.expanded(this.capture(this.intent(match[1])), expand);
    if (match && method === 'POST' && match[2] === 'cancel') return this.expanded(this.cancel(this.intent(match[1]), params.cancellation_reason ?? null), expand);
    const connect = this.connect.route(method, path, params);
    if (connect) return connect;
    throw new ApiError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  }

  private createIntent(params: Json): Json {
    const intentId = id('pi');
    const intent = {
      id: intentId, object: 'payment_intent', amount: Number(params.amount), currency: params.currency, capture_method: params.capture_method ?? 'automatic',
      status: 'requires_payment_method', client_secret: `${intentId}_secret_${randomBytes(8).toString('hex')}`, metadata: params.metadata ?? {},
      created: this.now(), canceled_at: null, cancellation_reason: null, last_payment_error: null, latest_charge: null, amount_capturable: 0,
      amount_received: 0, livemode: false,
    };
    this.intents.set(intentId, intent);
    return structuredClone(intent);
  }

  private capture(intent: Json): Json {
    if (intent.status !== 'requires_capture') throw unexpected(intent, 'captured');
    const charge = this.charges.get(intent.latest_charge) as Json;
    // The captured funds enter the platform's balance less Stripe's fee.
    Object.assign(charge, { captured: true, balance_transaction: this.connect.record('charge', charge.id, charge.amount, standInCardFee(charge.amount)) });
    Object.assign(intent, { status: 'succeeded', amount_capturable: 0, amount_received: intent.amount });
    this.emit('payment_intent.succeeded', intent);
    return intent;
  }

  private cancel(intent: Json, reason: string | null): Json {
    if (intent.status === 'succeeded' || intent.status === 'canceled') throw unexpected(intent, 'canceled');
    const charge = intent.latest_charge ? this.charges.get(intent.latest_charge) : null;
    // Canceling an uncaptured hold releases it: Stripe marks the authorised charge refunded.
    if (charge?.paid) Object.assign(charge, { refunded: true, amount_refunded: charge.amount });
    Object.assign(intent, { status: 'canceled', canceled_at: this.now(), cancellation_reason: reason, amount_capturable: 0 });
    this.emit('payment_intent.canceled', intent);
    return intent;
  }

  private refund(params: Json): Json {
    const intent = this.intent(String(params.payment_intent));
    const charge = intent.latest_charge ? this.charges.get(intent.latest_charge) : null;
    if (!charge || intent.status !== 'succeeded') throw unexpected(intent, 'refunded');
    if (charge.refunded) throw new ApiError(400, { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Charge ${charge.id} has already been refunded.` });
    const refundId = id('re');
    // The refund leaves the platform's balance; Stripe keeps the capture's fee.
    const refund = { id: refundId, object: 'refund', amount: charge.amount, charge: charge.id, payment_intent: intent.id, status: 'succeeded', created: this.now(),
      balance_transaction: this.connect.record('refund', refundId, -charge.amount, 0), currency: intent.currency };
    charge.refunds.push(refund);
    Object.assign(charge, { refunded: true, amount_refunded: charge.amount });
    this.emit('charge.refunded', { ...structuredClone(charge), refunds: { object: 'list', data: charge.refunds } });
    return refund;
  }

  private createSession(params: Json): Json {
    const sessionId = id('cs_test');
    const items: Json[] = params.line_items ?? [];
    const total = items.reduce((sum, item) => sum + Number(item.price_data?.unit_amount ?? 0) * Number(item.quantity ?? 1), 0);
    const session = {
      id: sessionId, object: 'checkout.session', mode: params.mode, status: 'open', payment_status: 'unpaid', amount_total: total,
      currency: items[0]?.price_data?.currency ?? 'usd', metadata: params.metadata ?? {}, client_reference_id: params.client_reference_id ?? null,
      success_url: params.success_url, cancel_url: params.cancel_url, payment_intent: null, url: `https://checkout.stand-in.test/c/pay/${sessionId}`,
    };
    this.sessions.set(sessionId, session);
    this.sessionIntentData.set(sessionId, params.payment_intent_data ?? {});
    return structuredClone(session);
  }

  /**
   * An intent with `latest_charge` expanded as asked: its balance transaction, its refunds (not on a charge unless
   * expanded), and their balance transactions. Expanding a nested path expands what contains it.
   */
  private expanded(intent: Json, expand: string[]): Json {
    const copy = structuredClone(intent);
    const charge = intent.latest_charge ? this.charges.get(intent.latest_charge) : null;
    if (charge && expand.some((path) => path.startsWith('latest_charge'))) {
      const c = structuredClone(charge);
      if (expand.includes('latest_charge.balance_transaction')) c.balance_transaction = this.connect.balanceTransaction(c.balance_transaction);
      const refunds = expand.some((path) => path.startsWith('latest_charge.refunds'));
      if (refunds && expand.includes('latest_charge.refunds.data.balance_transaction')) {
        for (const refund of c.refunds) refund.balance_transaction = this.connect.balanceTransaction(refund.balance_transaction);
      }
      c.refunds = refunds ? { object: 'list', data: c.refunds, has_more: false, url: `/v1/charges/${c.id}/refunds` } : undefined;
      copy.latest_charge = c;
    }
    return copy;
  }
}
