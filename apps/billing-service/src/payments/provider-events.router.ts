import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PAYMENT_PROVIDER, isPaymentEvent, type PaymentProvider, type ProviderEvent } from './payment-provider';
import { PaymentEventsHandler } from './payment-events.handler';
import { PayoutAccountsService } from '../payouts/payout-accounts.service';
import { PayoutsService } from '../payouts/payouts.service';

/**
 * Where each provider notice goes (D12, D22): a payment intent's to the payments reconciliation, a connected account's
 * to the payout accounts, a transfer's to the payouts. Every handler reconciles to what the provider says now, so a
 * notice applied twice changes nothing; a notice's id is recorded once it was applied, and a repeat is `duplicate`.
 */
@Injectable()
export class ProviderEventsRouter implements OnModuleInit {
  private readonly logger = new Logger('ProviderEvents');

  constructor(
    private readonly dataSource: DataSource,
    private readonly payments: PaymentEventsHandler,
    private readonly accounts: PayoutAccountsService,
    private readonly payouts: PayoutsService,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  onModuleInit() {
    this.provider.onEvent(async (event) => {
      await this.handle(event);
    });
  }

  /** Applies one notice; `duplicate` when its id was applied before, `ignored` when it names nothing of ours. */
  async handle(event: ProviderEvent): Promise<'applied' | 'duplicate' | 'ignored'> {
    if (isPaymentEvent(event)) return this.payments.handle(event);
    const [seen]: unknown[] = await this.dataSource.query('SELECT 1 FROM provider_events WHERE id = $1', [event.id]);
    if (seen) return 'duplicate';
    const ours = event.type === 'account.updated' ? await this.accounts.syncAccount(event.account_id) : await this.payouts.syncTransfer(event.transfer_id);
    await this.dataSource.query('INSERT INTO provider_events (id, type) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [event.id, event.type]);
    if (!ours) this.logger.warn(`${event.type} ${event.id} names nothing of ours`);
    return ours ? 'applied' : 'ignored';
  }
}
