import { Injectable, Logger } from '@nestjs/common';
import { RPC, type Actor } from '@market/contracts';
import { formatDollars, largeBidRefusal, largeBidThreshold } from '@market/domain';
import { forbidden, ServiceRpc, unavailable, withTimeout } from '@market/server-kit';

/** How long a large bid waits for billing to say whether the bidder has a verified card (ADR 0041). */
export const PAYMENT_METHOD_TIMEOUT_MS = 2000;

/**
 * The card check of a large bid (ADR 0041): billing-service is asked at the moment of the bid
 * (`billing.payment_method_status`, with the bidder's token), so a card saved a second ago counts and none is assumed.
 * Small bids never come here, so they never depend on billing.
 */
@Injectable()
export class PaymentMethodCheck {
  private readonly logger = new Logger('PaymentMethodCheck');

  constructor(private readonly rpc: ServiceRpc) {}

  /** Passes when the bidder has a verified card; a 403 saying where to add one when not; a 503 when billing does not answer. */
  async require(bidder: Actor, minimumNextBid: number): Promise<void> {
    let verified: boolean;
    try {
      const status = await withTimeout(this.rpc.call(RPC.billing.paymentMethodStatus, {}, bidder), PAYMENT_METHOD_TIMEOUT_MS, RPC.billing.paymentMethodStatus.subject);
      verified = status.verified;
    } catch (error) {
      this.logger.warn(`Large bid by ${bidder.user_id} refused: no card check (${(error as Error).message})`);
      throw unavailable(
        `We could not check your saved card just now, so this bid was not placed. Please try again in a moment (bids up to ${formatDollars(largeBidThreshold(minimumNextBid))} need no card).`,
      );
    }
    if (!verified) throw forbidden(largeBidRefusal(minimumNextBid));
  }
}
