import { authorizationEntries, captureEntries, holdReleasedEntries, refundOwedEntries, refundPaidEntries, type PaymentIntentStatus } from '@market/domain';
import type { LedgerWrite } from '../ledger/ledger.repository';
import type { ProviderIntent } from './payment-provider';
import type { SyncStep } from './payment-sync';

/**
 * The ledger transactions one step of an intent's reconciliation writes (D22, ADR 0063), keyed by the intent so a
 * replayed notice writes nothing twice: the hold made, captured into the platform's balance less the provider's fee,
 * released uncaptured, or refunded from escrow (owed, then paid by the provider). A refund once a payout was decided is
 * not the escrow's: it is left to the reconciliation to flag, since the platform never makes one itself.
 */
export function intentLedgerWrites(
  intent: { id: string; invoice_id: string; amount_cents: number },
  before: PaymentIntentStatus,
  step: SyncStep,
  remote: ProviderIntent,
  payoutDecided: boolean,
): LedgerWrite[] {
  const base = { invoice_id: intent.invoice_id };
  const x = intent.amount_cents;
  switch (step.intent) {
    case 'authorized':
      return [{ ...base, kind: 'authorization', key: `authorization:${intent.id}`, entries: authorizationEntries(x) }];
    case 'captured': {
      const balance = remote.capture_balance;
      return [
        {
          ...base,
          kind: 'capture',
          key: `capture:${intent.id}`,
          provider_ref: balance?.id ?? null,
          provider_at: balance?.created_at ?? null,
          entries: captureEntries(x, balance?.fee_cents ?? 0),
        },
      ];
    }
    case 'refunded': {
      if (payoutDecided) return [];
      const balance = remote.refund_balance;
      return [
        { ...base, kind: 'refund_owed', key: `refund_owed:${intent.id}`, entries: refundOwedEntries(x) },
        { ...base, kind: 'refund_paid', key: `refund_paid:${intent.id}`, provider_ref: balance?.id ?? null, provider_at: balance?.created_at ?? null, entries: refundPaidEntries(x) },
      ];
    }
    case 'canceled':
      return before === 'requires_capture' ? [{ ...base, kind: 'hold_released', key: `hold_released:${intent.id}`, entries: holdReleasedEntries(x) }] : [];
    default:
      return [];
  }
}
