import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers, OutboxRelay } from '@market/server-kit';
import { UnpaidSalesRepository } from './unpaid-sales.repository';
import { EndUnpaidSale } from './end-unpaid-sale';
import { PaymentWindowSweep } from './payment-window.sweep';

/** What the buyer and seller read as the reason: the suspension or deletion itself is the admin's audited act. */
export const REMOVED_BUYER_NOTE = "The buyer's account was suspended or closed by Site Market, so this purchase was cancelled.";

/**
 * Moderation reaches billing (ADR 0038, ADR 0043): a suspended or deleted member's unpaid purchases are cancelled as an
 * admin's cancel would, without a strike (their account already answers for it), so the listings go back on sale at
 * once instead of waiting out the payment window. A purchase already paid or held stands; a redelivery finds the
 * invoices cancelled and changes nothing.
 */
@Injectable()
export class MemberEventsHandler implements OnApplicationBootstrap {
  private readonly logger = new Logger('BillingMemberEvents');

  constructor(
    private readonly consumers: EventConsumers,
    private readonly sales: UnpaidSalesRepository,
    private readonly ending: EndUnpaidSale,
    private readonly window: PaymentWindowSweep,
    private readonly relay: OutboxRelay,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('user.suspended', async (event) => {
      await this.cancelPurchases(event.payload.user_id);
    });
    await this.consumers.subscribe('user.deleted', async (event) => {
      await this.cancelPurchases(event.payload.user_id);
    });
  }

  /** Ends each unpaid purchase of the member in its own transaction (each locks its invoice), then cancels open payments. */
  async cancelPurchases(buyerId: string, now = new Date()): Promise<number> {
    let ended = 0;
    for (const invoiceId of await this.sales.unpaidOfBuyer(buyerId)) {
      const ending = { event: 'sale_cancelled', reason: 'admin_cancelled', strike: false, note: REMOVED_BUYER_NOTE } as const;
      const result = await this.ending.end(invoiceId, ending, now, { wait: true });
      if (!result.ended) continue;
      ended += 1;
      this.relay.kick();
      await this.window.cancelOpen(result.openIntents);
    }
    if (ended) this.logger.log(`Cancelled ${ended} unpaid purchase(s) of removed member ${buyerId}`);
    return ended;
  }
}
