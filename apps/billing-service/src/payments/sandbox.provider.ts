import { Logger } from '@nestjs/common';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { TestCardOutcome } from '@market/domain';
import {
  ProviderError,
  type CancellationReason,
  type CheckoutSessionInput,
  type CreateIntentInput,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderEventType,
  type ProviderIntent,
  type ProviderIntentStatus,
  type CreateSetupIntentInput,
  type ProviderSetupIntent,
  type ProviderBalanceEntry,
} from './payment-provider';
import { SandboxConnect, sandboxCardFee } from './sandbox-connect';

/** The provider's answer to a card confirmation, like Stripe.js's: the intent, or the card's error. */
export interface SandboxConfirmation {
  intent: ProviderIntent;
  error: { code: string; message: string } | null;
}

export const DECLINE_MESSAGES: Record<'card_declined' | 'insufficient_funds', string> = {
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
};

const COLUMNS = `id, status, amount_cents::float8 AS amount_cents, currency, client_secret, authorized_at, captured_at, refunded_at,
  canceled_at, cancellation_reason, last_error, charge_id`;
/** An intent with the balance transactions its capture and refund left (the ledger reconciles to them, D22). */
const RETRIEVE = `SELECT i.id, i.status, i.amount_cents::float8 AS amount_cents, i.currency, i.client_secret, i.authorized_at, i.captured_at,
    i.refunded_at, i.canceled_at, i.cancellation_reason, i.last_error, i.charge_id,
    c.id AS c_id, c.amount_cents::float8 AS c_amount, c.fee_cents::float8 AS c_fee, c.created_at AS c_at,
    r.id AS r_id, r.amount_cents::float8 AS r_amount, r.created_at AS r_at
  FROM sandbox_intents i
    LEFT JOIN sandbox_balance_transactions c ON c.type = 'charge' AND c.source_id = i.charge_id
    LEFT JOIN sandbox_balance_transactions r ON r.type = 'refund' AND r.source_id = i.charge_id
  WHERE i.id = $1`;
const CONFIRMABLE: ProviderIntentStatus[] = ['requires_payment_method', 'requires_confirmation', 'requires_action'];
const SETUP_COLUMNS = 'id, status, client_secret, card_last4, user_id::text AS user_id, last_error';

/**
 * One change of an intent: the columns to set ('now' for the provider's clock), the event it emits, and the balance
 * transaction it leaves (a capture's gross and fee, a refund's negative amount).
 */
type Change = { set: Record<string, string | null>; event: ProviderEventType; balance?: 'charge' | 'refund' } | null;

type StoredIntent = Omit<ProviderIntent, 'capture_balance' | 'refund_balance'>;
interface RetrievedRow extends StoredIntent {
  c_id: string | null;
  c_amount: number | null;
  c_fee: number | null;
  c_at: Date | null;
  r_id: string | null;
  r_amount: number | null;
  r_at: Date | null;
}

function intentOf(row: RetrievedRow): ProviderIntent {
  const { c_id, c_amount, c_fee, c_at, r_id, r_amount, r_at, ...intent } = row;
  const entry = (id: string | null, amount: number | null, fee: number | null, at: Date | null): ProviderBalanceEntry | null =>
    id && amount !== null && at ? { id, amount_cents: amount, fee_cents: fee ?? 0, net_cents: amount - (fee ?? 0), created_at: at } : null;
  return { ...intent, capture_balance: entry(c_id, c_amount, c_fee, c_at), refund_balance: entry(r_id, r_amount, 0, r_at) };
}

const token = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const AUTHORIZED = { status: 'requires_capture', authorized_at: 'now', last_error: null } as const;

/** A stored sandbox event as the notice its type makes (an intent's, an account's or a transfer's). */
function eventOf(row: { id: string; type: ProviderEventType; object_id: string; at: Date }): ProviderEvent {
  if (row.type === 'account.updated') return { id: row.id, type: row.type, account_id: row.object_id, at: row.at };
  if (row.type === 'transfer.created' || row.type === 'transfer.reversed') return { id: row.id, type: row.type, transfer_id: row.object_id, at: row.at };
  return { id: row.id, type: row.type, intent_id: row.object_id, at: row.at };
}

/**
 * The built-in provider (D12): Stripe's PaymentIntent states and test cards, kept in its own tables of the billing
 * schema. Each change is written with its events in one transaction; the events are then delivered to the one
 * listener (PaymentEventsHandler), as Stripe's webhooks would be, and redelivered by the hold sweep if that failed.
 * It is handed a card's outcome, never its number.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  readonly checkoutMakesIntent = false;
  private readonly logger = new Logger('SandboxProvider');
  private listener: ((event: ProviderEvent) => Promise<void>) | null = null;
  /** Connected accounts, transfers and balance transactions (D22). */
  readonly connect: SandboxConnect;

  constructor(
    private readonly dataSource: DataSource,
    private readonly publicUrl: string,
  ) {
    this.connect = new SandboxConnect(dataSource, publicUrl, (events) => this.deliver(events));
  }

  onEvent(listener: (event: ProviderEvent) => Promise<void>): void {
    this.listener = listener;
  }

  async createIntent(input: CreateIntentInput): Promise<ProviderIntent> {
    const id = token('pi_sbx');
    await this.dataSource.query(
      `INSERT INTO sandbox_intents (id, idempotency_key, status, amount_cents, currency, client_secret, metadata)
       VALUES ($1, $2, 'requires_payment_method', $3, $4, $5, $6) ON CONFLICT (idempotency_key) DO NOTHING`,
      [id, input.idempotency_key, input.amount_cents, input.currency, `${id}_secret_${randomBytes(16).toString('hex')}`, JSON.stringify(input.metadata)],
    );
    // Same key, same intent: the first caller's row whichever of two racing callers inserted it.
    const [row]: { id: string }[] = await this.dataSource.query('SELECT id FROM sandbox_intents WHERE idempotency_key = $1', [input.idempotency_key]);
    return (await this.retrieve(row.id)) as ProviderIntent;
  }

  async retrieve(intentId: string): Promise<ProviderIntent | null> {
    const [row]: RetrievedRow[] = await this.dataSource.query(RETRIEVE, [intentId]);
    return row ? intentOf(row) : null;
  }

  capture(intentId: string): Promise<ProviderIntent> {
    return this.change(intentId, (intent): Change => {
      if (intent.status === 'succeeded') throw new ProviderError('already_captured', 'This payment has already been captured.');
      if (intent.status !== 'requires_capture') throw new ProviderError('not_capturable', `This payment cannot be captured because it has a status of ${intent.status}.`);
      return { set: { status: 'succeeded', captured_at: 'now' }, event: 'payment_intent.succeeded', balance: 'charge' };
    });
  }

  cancel(intentId: string, reason: CancellationReason): Promise<ProviderIntent> {
    return this.change(intentId, (intent): Change => {
      if (intent.status === 'succeeded') throw new ProviderError('not_refundable', 'This payment was captured; refund it instead.');
      if (intent.status === 'canceled') throw new ProviderError('already_refunded', 'This payment has already been canceled.');
      return { set: { status: 'canceled', canceled_at: 'now', cancellation_reason: reason }, event: 'payment_intent.canceled' };
    });
  }

  refund(intentId: string): Promise<ProviderIntent> {
    return this.change(intentId, (intent): Change => {
      if (intent.refunded_at) throw new ProviderError('already_refunded', 'This payment has already been refunded.');
      if (intent.status !== 'succeeded') throw new ProviderError('not_refundable', `This payment cannot be refunded because it has a status of ${intent.status}.`);
      return { set: { refunded_at: 'now' }, event: 'charge.refunded', balance: 'refund' };
    });
  }

  async createCheckoutSession(input: CheckoutSessionInput): Promise<{ id: string; url: string }> {
    if (!input.intent_id) throw new Error('The sandbox checkout confirms an existing intent');
    const id = token('cs_sbx');
    // Stripe's template: the success address names the session it came from.
    const successUrl = input.success_url.replace('{CHECKOUT_SESSION_ID}', id);
    await this.dataSource.query('INSERT INTO sandbox_checkout_sessions (id, intent_id, success_url, cancel_url) VALUES ($1, $2, $3, $4)', [
      id,
      input.intent_id,
      successUrl,
      input.cancel_url,
    ]);
    return { id, url: new URL(`/sandbox-checkout/${id}`, this.publicUrl).toString() };
  }

  /** A SetupIntent waiting for the sandbox's card form (ADR 0041); the same key answers the same one. */
  async createSetupIntent(input: CreateSetupIntentInput): Promise<ProviderSetupIntent> {
    const id = token('seti_sbx');
    await this.dataSource.query(
      `INSERT INTO sandbox_setup_intents (id, idempotency_key, user_id, status, client_secret)
       VALUES ($1, $2, $3, 'requires_payment_method', $4) ON CONFLICT (idempotency_key) DO NOTHING`,
      [id, input.idempotency_key, input.user_id, `${id}_secret_${randomBytes(16).toString('hex')}`],
    );
    const [row]: ProviderSetupIntent[] = await this.dataSource.query(`SELECT ${SETUP_COLUMNS} FROM sandbox_setup_intents WHERE idempotency_key = $1`, [
      input.idempotency_key,
    ]);
    return row;
  }

  async retrieveSetupIntent(setupIntentId: string): Promise<ProviderSetupIntent | null> {
    const [row]: ProviderSetupIntent[] = await this.dataSource.query(`SELECT ${SETUP_COLUMNS} FROM sandbox_setup_intents WHERE id = $1`, [setupIntentId]);
    return row ?? null;
  }

  /**
   * Confirms a SetupIntent with a test card's outcome and its last four digits (never the number). The form is its own
   * confirmation step, so a card that asks for one (3184) is verified at once; a declined card leaves it waiting for
   * another card, with the card's error, as Stripe does.
   */
  async confirmSetup(setupIntentId: string, outcome: TestCardOutcome, last4: string): Promise<{ setup: ProviderSetupIntent; error: SandboxConfirmation['error'] }> {
    return this.dataSource.transaction(async (manager) => {
      const [current]: ProviderSetupIntent[] = await manager.query(`SELECT ${SETUP_COLUMNS} FROM sandbox_setup_intents WHERE id = $1 FOR UPDATE`, [setupIntentId]);
      if (!current) throw new ProviderError('not_found', 'No such setup intent');
      if (current.status === 'succeeded' || current.status === 'canceled') {
        return { setup: current, error: { code: 'setup_intent_unexpected_state', message: `This card setup cannot be confirmed because it has a status of ${current.status}.` } };
      }
      const declined = outcome === 'card_declined' || outcome === 'insufficient_funds';
      const error = declined ? { code: outcome, message: DECLINE_MESSAGES[outcome] } : null;
      const [[setup]]: [ProviderSetupIntent[]] = await manager.query(
        `UPDATE sandbox_setup_intents SET status = $2, card_last4 = $3, last_error = $4 WHERE id = $1 RETURNING ${SETUP_COLUMNS}`,
        [setupIntentId, declined ? 'requires_payment_method' : 'succeeded', declined ? null : last4, error?.message ?? null],
      );
      return { setup, error };
    });
  }

  /** A checkout session with its intent's id and where the buyer goes next. */
  async checkoutSession(sessionId: string): Promise<{ id: string; intent_id: string; success_url: string; cancel_url: string; status: string } | null> {
    const [row] = await this.dataSource.query('SELECT id, intent_id, success_url, cancel_url, status FROM sandbox_checkout_sessions WHERE id = $1', [sessionId]);
    return row ?? null;
  }

  async markCheckoutComplete(sessionId: string): Promise<void> {
    await this.dataSource.query(`UPDATE sandbox_checkout_sessions SET status = 'complete' WHERE id = $1`, [sessionId]);
  }

  /** True when `secret` is the intent's client secret (compared in constant time). */
  secretMatches(intent: ProviderIntent, secret: string): boolean {
    const a = Buffer.from(intent.client_secret);
    const b = Buffer.from(secret);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** Confirms an intent with a test card's outcome (D12 test cards). */
  async confirm(intentId: string, outcome: TestCardOutcome): Promise<SandboxConfirmation> {
    let error: SandboxConfirmation['error'] = null;
    const intent = await this.change(intentId, (current): Change => {
      if (!CONFIRMABLE.includes(current.status)) {
        error = { code: 'payment_intent_unexpected_state', message: `This payment cannot be confirmed because it has a status of ${current.status}.` };
        return null;
      }
      if (outcome === 'succeeds') return { set: { ...AUTHORIZED, charge_id: token('ch_sbx') }, event: 'payment_intent.amount_capturable_updated' };
      if (outcome === 'requires_confirmation') return { set: { status: 'requires_action', last_error: null }, event: 'payment_intent.requires_action' };
      error = { code: outcome, message: DECLINE_MESSAGES[outcome] };
      return { set: { status: 'requires_payment_method', last_error: error.message }, event: 'payment_intent.payment_failed' };
    });
    return { intent, error };
  }

  /** Completes the confirmation step (3-D Secure) a requires_action intent waits for: the hold is made. */
  async confirmStep(intentId: string): Promise<SandboxConfirmation> {
    let error: SandboxConfirmation['error'] = null;
    const intent = await this.change(intentId, (current): Change => {
      if (current.status !== 'requires_action') {
        error = { code: 'payment_intent_unexpected_state', message: `This payment has no confirmation step waiting; its status is ${current.status}.` };
        return null;
      }
      return { set: { ...AUTHORIZED, charge_id: token('ch_sbx') }, event: 'payment_intent.amount_capturable_updated' };
    });
    return { intent, error };
  }

  /** Delivers events whose delivery failed, oldest first (the sandbox's webhook retries). */
  async redeliver(olderThan: Date, limit = 100): Promise<number> {
    const rows: { id: string; type: ProviderEventType; object_id: string; at: Date }[] = await this.dataSource.query(
      'SELECT id, type, object_id, at FROM sandbox_events WHERE delivered_at IS NULL AND at < $1 ORDER BY at LIMIT $2',
      [olderThan, limit],
    );
    await this.deliver(rows.map(eventOf));
    return rows.length;
  }

  /**
   * Applies one change to an intent under its row lock and records its event, then delivers the event. `decide`
   * returns the columns to set ('now' for the provider's clock) or null to change nothing.
   */
  private async change(
    intentId: string,
    decide: (intent: ProviderIntent) => Change,
  ): Promise<ProviderIntent> {
    const { intent, events } = await this.dataSource.transaction(async (manager): Promise<{ intent: string; events: ProviderEvent[] }> => {
      const [current]: StoredIntent[] = await manager.query(`SELECT ${COLUMNS} FROM sandbox_intents WHERE id = $1 FOR UPDATE`, [intentId]);
      if (!current) throw new ProviderError('not_found', 'No such payment intent');
      const decision = decide(current as ProviderIntent);
      if (!decision) return { intent: intentId, events: [] };
      const at = new Date();
      const entries = Object.entries(decision.set);
      const assignments = entries.map(([column], i) => `${column} = $${i + 2}`).join(', ');
      const [[updated]]: [StoredIntent[]] = await manager.query(`UPDATE sandbox_intents SET ${assignments} WHERE id = $1 RETURNING ${COLUMNS}`, [
        intentId,
        ...entries.map(([, value]) => (value === 'now' ? at : value)),
      ]);
      if (decision.balance === 'charge' && updated.charge_id) {
        await this.connect.recordBalance(manager, 'charge', updated.charge_id, updated.amount_cents, sandboxCardFee(updated.amount_cents), at);
      }
      if (decision.balance === 'refund' && updated.charge_id) await this.connect.recordBalance(manager, 'refund', updated.charge_id, -updated.amount_cents, 0, at);
      const event = { id: token('evt_sbx'), type: decision.event, intent_id: intentId, at } as ProviderEvent;
      await manager.query('INSERT INTO sandbox_events (id, type, intent_id, object_id, at) VALUES ($1, $2, $3, $3, $4)', [event.id, event.type, intentId, event.at]);
      return { intent: intentId, events: [event] };
    });
    await this.deliver(events);
    return (await this.retrieve(intent)) as ProviderIntent;
  }

  private async deliver(events: ProviderEvent[]): Promise<void> {
    for (const event of events) {
      if (!this.listener) return;
      try {
        await this.listener(event);
        await this.dataSource.query('UPDATE sandbox_events SET delivered_at = now() WHERE id = $1', [event.id]);
      } catch (error) {
        this.logger.warn(`Delivery of ${event.type} ${event.id} failed, will retry: ${(error as Error).message}`);
      }
    }
  }
}
