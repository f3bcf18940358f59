import type { Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BILLING_CONFIG, paymentProviderOf, type BillingConfig } from '../billing.config';
import { PAYMENT_PROVIDER } from './payment-provider';
import { SandboxProvider } from './sandbox.provider';
import { StripeProvider, stripeClient } from './stripe-provider';
import { StripeWebhooks } from './stripe-webhooks';
import { PaymentIntentsRepository } from './payment-intents.repository';
import { PaymentEventsHandler } from './payment-events.handler';
import { PaymentAdminActs } from './payment-admin-acts';
import { PaymentsService } from './payments.service';
import { HoldExpirySweep } from './hold-expiry.sweep';
import { PaymentsModeService } from './payments-mode.service';
import { EscrowService } from './escrow.service';
import { ProviderEventsRouter } from './provider-events.router';

/** The payments module's providers; the card provider is chosen once at start (D12, ADR 0020). */
export const PAYMENTS_PROVIDERS: Provider[] = [
  {
    provide: PAYMENT_PROVIDER,
    inject: [DataSource, BILLING_CONFIG],
    useFactory: (dataSource: DataSource, config: BillingConfig) => {
      // PAYMENTS_PROVIDER, else both Stripe keys, select Stripe; loadBillingConfig refused the rest (ADR 0033).
      if (paymentProviderOf(config) === 'stripe') return new StripeProvider(stripeClient(config));
      return new SandboxProvider(dataSource, config.PUBLIC_URL);
    },
  },
  PaymentIntentsRepository,
  PaymentEventsHandler,
  PaymentAdminActs,
  PaymentsService,
  HoldExpirySweep,
  StripeWebhooks,
  PaymentsModeService,
  EscrowService,
  ProviderEventsRouter,
];
