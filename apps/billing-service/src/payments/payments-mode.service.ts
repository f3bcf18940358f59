import { Inject, Injectable } from '@nestjs/common';
import type { PaymentsMode } from '@market/contracts';
import { PAYMENT_PROVIDER, type PaymentProvider } from './payment-provider';

/** Which card provider runs, for anyone who asks (GET /api/site): the sandbox means test mode (ADR 0033). */
@Injectable()
export class PaymentsModeService {
  constructor(@Inject(PAYMENT_PROVIDER) private readonly provider: Pick<PaymentProvider, 'name'>) {}

  /** The provider chosen at start and whether no real money moves through it. */
  current(): PaymentsMode {
    return { provider: this.provider.name, test_mode: this.provider.name === 'sandbox' };
  }
}
