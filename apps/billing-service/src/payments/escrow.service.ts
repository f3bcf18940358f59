import { Inject, Injectable, Logger } from '@nestjs/common';
import { PAYMENT_PROVIDER, ProviderError, type PaymentProvider } from './payment-provider';
import { PaymentIntentsRepository } from './payment-intents.repository';
import { PaymentEventsHandler } from './payment-events.handler';

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
}
