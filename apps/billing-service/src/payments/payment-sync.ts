import { paymentIntentTransition, type InvoiceEvent, type PaymentIntentEvent, type PaymentIntentStatus } from '@market/domain';
import type { ProviderIntent } from './payment-provider';

/** One move of the local intent (and the invoice event it causes), by the domain's transition table. */
export interface SyncStep {
  /** Null when only the invoice moves (a second decline of an intent already awaiting a new card). */
  intent: PaymentIntentEvent | null;
  invoice: InvoiceEvent | null;
  to: PaymentIntentStatus;
}

const UNAUTHORIZED: PaymentIntentStatus[] = ['requires_payment_method', 'requires_confirmation', 'processing'];

/**
 * The steps that bring a local intent to what the provider says now (ADR 0020). Events only say "look again": the
 * provider's current intent decides, so replayed, late or reordered events all end in the same state. Each step is a
 * domain transition; facts the local row missed (an authorisation before a capture) are applied first, in order.
 */
export function syncSteps(local: PaymentIntentStatus, localError: string | null, remote: ProviderIntent): SyncStep[] {
  const steps: SyncStep[] = [];
  let status = local;
  const move = (event: PaymentIntentEvent, invoice: InvoiceEvent | null) => {
    const next = paymentIntentTransition(status, event);
    if (next === null) return;
    steps.push({ intent: event, invoice, to: next });
    status = next;
  };
  if (remote.authorized_at && UNAUTHORIZED.includes(status)) move('authorized', 'payment_authorized');
  if (remote.captured_at && status === 'requires_capture') move('captured', 'funds_captured');
  if (remote.refunded_at && status === 'succeeded') move('refunded', 'refunded');
  if (remote.status === 'canceled' && status !== 'canceled') {
    const lapsed = status === 'requires_capture' && remote.cancellation_reason === 'expired';
    move('canceled', lapsed ? 'hold_expired' : 'payment_canceled');
  }
  if (remote.authorized_at || remote.status === 'canceled') return steps;
  if ((remote.status === 'requires_action' || remote.status === 'requires_confirmation') && status === 'requires_payment_method') {
    move('confirmation_required', null);
  }
  if (remote.status === 'requires_payment_method' && remote.last_error) {
    if (status === 'requires_payment_method') {
      if (localError !== remote.last_error) steps.push({ intent: null, invoice: 'payment_failed', to: status });
    } else {
      move('declined', 'payment_failed');
    }
  }
  return steps;
}

/**
 * The payment.* event an invoice change announces (D19): authorised, captured, or refunded — which includes an admin
 * releasing a hold that was never captured (the intent was requires_capture). Null for every other change.
 */
export function paymentEventOf(invoice: InvoiceEvent, intentBefore: PaymentIntentStatus): 'payment.authorized' | 'payment.captured' | 'payment.refunded' | null {
  if (invoice === 'payment_authorized') return 'payment.authorized';
  if (invoice === 'funds_captured') return 'payment.captured';
  if (invoice === 'refunded') return 'payment.refunded';
  if (invoice === 'payment_canceled' && intentBefore === 'requires_capture') return 'payment.refunded';
  return null;
}
