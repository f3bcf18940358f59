import type { Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BILLING_CONFIG, paymentProviderOf, type BillingConfig } from '../billing.config';
import { PAYMENT_PROVIDER } from './payment-provider';
import { SandboxProvider } from './sandbox.provider';
import { PaymentIntentsRepository } from './payment-intents.repository';
import { PaymentEventsHandler } from './payment-events.handler';
import { PaymentsService } from './payments.service';
import { HoldExpirySweep } from './hold-expiry.sweep';

/** The payments module's providers; the card provider is chosen once at start (D12, ADR 0020). */
export const PAYMENTS_PROVIDERS: Provider[] = [
  {
    provide: PAYMENT_PROVIDER,
    inject: [DataSource, BILLING_CONFIG],
    useFactory: (dataSource: DataSource, config: BillingConfig) => {
      // Only the sandbox exists yet: paymentProviderOf refuses Stripe keys (loadBillingConfig already did at start).
      paymentProviderOf(config);
      return new SandboxProvider(dataSource, config.PUBLIC_URL);
    },
  },
  PaymentIntentsRepository,
  PaymentEventsHandler,
  PaymentsService,
  HoldExpirySweep,
];
