import { Inject, Injectable, Logger } from '@nestjs/common';
import { refundRoute } from '@market/domain';
import { PAYMENT_PROVIDER, ProviderError, type PaymentProvider, type ProviderIntent } from './payment-provider';
import { PaymentIntentsRepository, type PaymentIntentRecord } from './payment-intents.repository';
import { PaymentEventsHandler } from './payment-events.handler';
import { TransferSteps } from '../transfer/transfer-steps';

/** Why a refund was not made: the payment's state, the provider's refusal, a dispute, a payout decided, no invoice. */
export interface RefundRefusal {
  refused: string;
  because: 'state' | 'provider' | 'disputed' | 'released' | 'missing';
}

/** What a capture into escrow did: captured now, found captured already, nothing held, or the provider failed. */
export type CaptureOutcome = 'captured' | 'already' | 'nothing_held' | 'failed';

/**
 * Escrow that outlasts the card hold (D22, ADR 0063): the buyer's held funds are captured into the platform's balance,
 * where they stay held for the invoice until released or refunded. The provider is called outside any lock (ADR 0047)
 * and the intent is then reconciled, which writes the capture's ledger transaction; a capture already made (another
 * replica, a retry) is the same capture at the provider.
 */
@Injectable()
export class EscrowService {
  private readonly logger = new Logger('Escrow');

  constructor(
    private readonly intents: PaymentIntentsRepository,
    private readonly events: PaymentEventsHandler,
    private readonly transfer: TransferSteps,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  /** Captures the invoice's hold, if it still is one. A provider failure leaves the hold as it was (`failed`). */
  async captureInvoice(invoiceId: string): Promise<CaptureOutcome> {
    const intent = await this.intents.findHolding(invoiceId);
    if (!intent) return 'nothing_held';
    if (intent.status === 'succeeded') return 'already';
    return this.capture(intent.provider_intent_id);
  }

  /** Captures one hold by its provider id and reconciles it. */
  async capture(providerIntentId: string): Promise<CaptureOutcome> {
    try {
      await this.provider.capture(providerIntentId);
    } catch (error) {
      if (!(error instanceof ProviderError)) {
        this.logger.warn(`Capture of ${providerIntentId} into escrow failed; the hold stays and is tried again: ${(error as Error).message}`);
        return 'failed';
      }
      // Captured already (a retry, another replica) or no longer capturable: the reconciliation says which.
      const synced = await this.events.sync(providerIntentId);
      return synced?.status === 'succeeded' ? 'already' : 'failed';
    }
    await this.events.sync(providerIntentId);
    return 'captured';
  }

  /**
   * Refunds an invoice's held money (D22, ADR 0063): the invoice is claimed for the refund under its lock first (no
   * release can slip in between the check and the provider's answer), then an uncaptured hold is canceled or captured
   * funds are refunded, outside any lock. A refusal says why (`released`: a payout was decided, the money is the
   * seller's); when the provider refuses or fails and still holds the funds as they were, the claim is let go.
   */
  async refund(intent: PaymentIntentRecord, options: { forDispute: boolean }): Promise<RefundRefusal | { remote: ProviderIntent }> {
    const route = refundRoute(intent.status, intent.refunded_at !== null, null);
    if (route.route === 'refused') return { refused: route.why, because: 'state' };
    const claim = await this.transfer.claimRefund(intent.invoice_id, options.forDispute);
    if (!claim.ok) return { refused: claim.why, because: claim.because };
    try {
      const remote =
        route.route === 'cancel_hold'
          ? await this.provider.cancel(intent.provider_intent_id, 'requested_by_customer')
          : await this.provider.refund(intent.provider_intent_id);
      return { remote };
    } catch (error) {
      const still = await this.provider.retrieve(intent.provider_intent_id).catch(() => null);
      const unchanged = still && !still.refunded_at && (still.status === 'requires_capture' || still.status === 'succeeded');
      if (unchanged) await this.transfer.clearRefund(intent.invoice_id);
      if (error instanceof ProviderError) return { refused: error.message, because: 'provider' };
      this.logger.warn(`Refund of ${intent.provider_intent_id} failed${unchanged ? '; the funds stay held' : ''}: ${(error as Error).message}`);
      throw error;
    }
  }
}
