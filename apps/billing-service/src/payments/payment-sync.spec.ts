import { INVOICE_EVENTS, PAYMENT_INTENT_STATUSES, type PaymentIntentStatus } from '@market/domain';
import { ConfigError } from '@market/server-kit';
import { paymentProviderOf } from '../billing.config';
import type { ProviderIntent } from './payment-provider';
import { paymentEventOf, syncSteps } from './payment-sync';

const at = new Date('2026-11-20T10:00:00Z');
const remote = (overrides: Partial<ProviderIntent>): ProviderIntent => ({
  id: 'pi_sbx_1',
  status: 'requires_payment_method',
  amount_cents: 450000,
  currency: 'usd',
  client_secret: 'pi_sbx_1_secret_x',
  authorized_at: null,
  captured_at: null,
  refunded_at: null,
  canceled_at: null,
  cancellation_reason: null,
  last_error: null,
  charge_id: null,
  capture_balance: null,
  refund_balance: null,
  ...overrides,
});
const finalStatus = (local: PaymentIntentStatus, r: ProviderIntent) => syncSteps(local, null, r).at(-1)?.to ?? local;

describe('syncSteps: a local intent follows the provider whatever it missed', () => {
  const captured = remote({ status: 'succeeded', authorized_at: at, captured_at: at });

  it('applies the facts it missed in order: an authorisation before a capture, a capture before a refund', () => {
    expect(syncSteps('requires_payment_method', null, captured)).toEqual([
      { intent: 'authorized', invoice: 'payment_authorized', to: 'requires_capture' },
      { intent: 'captured', invoice: 'funds_captured', to: 'succeeded' },
    ]);
    expect(syncSteps('requires_confirmation', null, remote({ ...captured, refunded_at: at })).map((s) => s.invoice)).toEqual([
      'payment_authorized',
      'funds_captured',
      'refunded',
    ]);
  });

  it('tells an expired hold from a canceled one', () => {
    const canceled = (reason: ProviderIntent['cancellation_reason']) => remote({ status: 'canceled', authorized_at: at, canceled_at: at, cancellation_reason: reason });
    expect(syncSteps('requires_capture', null, canceled('expired'))).toEqual([{ intent: 'canceled', invoice: 'hold_expired', to: 'canceled' }]);
    expect(syncSteps('requires_capture', null, canceled('requested_by_customer'))).toEqual([{ intent: 'canceled', invoice: 'payment_canceled', to: 'canceled' }]);
  });

  it('records a decline once, and never undoes a hold with a late decline', () => {
    const declined = remote({ last_error: 'Your card was declined.' });
    expect(syncSteps('requires_payment_method', null, declined)).toEqual([{ intent: null, invoice: 'payment_failed', to: 'requires_payment_method' }]);
    expect(syncSteps('requires_payment_method', 'Your card was declined.', declined)).toEqual([]);
    expect(syncSteps('requires_confirmation', null, declined)).toEqual([{ intent: 'declined', invoice: 'payment_failed', to: 'requires_payment_method' }]);
    expect(syncSteps('requires_capture', null, declined)).toEqual([]);
  });

  it('is idempotent from every status: a second sync after the first changes nothing', () => {
    const remotes = [
      remote({}),
      remote({ status: 'requires_action' }),
      remote({ status: 'requires_capture', authorized_at: at }),
      captured,
      remote({ ...captured, refunded_at: at }),
      remote({ status: 'canceled', canceled_at: at, cancellation_reason: 'abandoned' }),
    ];
    for (const local of PAYMENT_INTENT_STATUSES) {
      for (const r of remotes) {
        const reached = finalStatus(local, r);
        expect(syncSteps(reached, r.last_error, r)).toEqual([]);
      }
    }
  });
});

describe('paymentProviderOf (D12)', () => {
  it('is the sandbox without Stripe keys, Stripe with both and its webhook secret, and names a missing variable', () => {
    expect(paymentProviderOf({})).toBe('sandbox');
    expect(() => paymentProviderOf({ STRIPE_PUBLISHABLE_KEY: 'pk_test_1' })).toThrow(new ConfigError('STRIPE_SECRET_KEY', 'is required when STRIPE_PUBLISHABLE_KEY is set'));
    expect(() => paymentProviderOf({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(/STRIPE_PUBLISHABLE_KEY/);
    expect(() => paymentProviderOf({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PUBLISHABLE_KEY: 'pk_test_1' })).toThrow(
      new ConfigError('STRIPE_WEBHOOK_SECRET', 'is required when the Stripe keys are set'),
    );
    expect(paymentProviderOf({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PUBLISHABLE_KEY: 'pk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' })).toBe('stripe');
  });
});

describe('paymentEventOf (D19)', () => {
  it('announces authorisation, capture and refund, and a released hold as a refund', () => {
    expect(paymentEventOf('payment_authorized', 'requires_payment_method')).toBe('payment.authorized');
    expect(paymentEventOf('funds_captured', 'requires_capture')).toBe('payment.captured');
    expect(paymentEventOf('refunded', 'succeeded')).toBe('payment.refunded');
    expect(paymentEventOf('payment_canceled', 'requires_capture')).toBe('payment.refunded');
  });

  it('announces nothing else: a buyer abandoning an unpaid attempt, a decline, a lapsed hold (its own event)', () => {
    expect(paymentEventOf('payment_canceled', 'requires_payment_method')).toBeNull();
    expect(paymentEventOf('payment_failed', 'requires_payment_method')).toBeNull();
    expect(paymentEventOf('hold_expired', 'requires_capture')).toBeNull();
    const announced = INVOICE_EVENTS.filter((e) => PAYMENT_INTENT_STATUSES.some((s) => paymentEventOf(e, s) !== null));
    expect(announced.sort()).toEqual(['funds_captured', 'payment_authorized', 'payment_canceled', 'refunded']);
  });
});
