import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, domainProofProviders, ServiceRpc, SettingsModule, type ServiceConfig } from '@market/server-kit';
import { BILLING_DATABASE } from './billing.database';
import { BILLING_CONFIG, withBillingDefaults, type BillingConfig } from './billing.config';
import { BillingStatsController } from './stats/billing-stats.controller';
import { InvoicesRepository } from './invoices/invoices.repository';
import { InvoicesService } from './invoices/invoices.service';
import { InvoicesController } from './invoices/invoices.controller';
import { SaleEventsHandler } from './invoices/sale-events.handler';
import { OverdueSweep } from './invoices/overdue-sweep';
import { PAYMENTS_PROVIDERS } from './payments/payments.providers';
import { PaymentsController } from './payments/payments.controller';
import { AdminBillingController } from './admin/admin-billing.controller';
import { AdminBillingRepository } from './admin/admin-billing.repository';
import { AdminBillingService } from './admin/admin-billing.service';
import { TransferRepository } from './transfer/transfer.repository';
import { TransferSteps } from './transfer/transfer-steps';
import { TransferService } from './transfer/transfer.service';
import { TransferController } from './transfer/transfer.controller';
import { DisputeEscalationSweep } from './transfer/dispute-escalation.sweep';
import { TransferProofRepository } from './transfer-proof/transfer-proof.repository';
import { TransferProofService } from './transfer-proof/transfer-proof.service';
import { TransferProofController } from './transfer-proof/transfer-proof.controller';
import { PaymentMethodsRepository } from './payment-methods/payment-methods.repository';
import { PaymentMethodsService } from './payment-methods/payment-methods.service';
import { PaymentMethodsController } from './payment-methods/payment-methods.controller';
import { PaymentWindowSweep } from './invoices/payment-window.sweep';
import { UnpaidSalesRepository } from './invoices/unpaid-sales.repository';
import { EndUnpaidSale } from './invoices/end-unpaid-sale';
import { SaleCancellationService } from './invoices/sale-cancellation.service';
import { MemberEventsHandler } from './invoices/member-events.handler';
import { SaleCancellationController } from './invoices/sale-cancellation.controller';
import { BillingCountsRepository } from './stats/billing-counts.repository';
import { BillingMetrics } from './stats/billing.metrics';
import { BillingClock } from './clock/billing-clock';
import { EscrowFactsReader } from './invoices/escrow-facts.reader';
import { LedgerRepository } from './ledger/ledger.repository';
import { LedgerService } from './ledger/ledger.service';
import { LedgerController } from './ledger/ledger.controller';
import { ReconciliationService } from './ledger/reconciliation.service';
import { ReconciliationSweep } from './ledger/reconciliation.sweep';
import { PayoutAccountsRepository } from './payouts/payout-accounts.repository';
import { PayoutAccountsService } from './payouts/payout-accounts.service';
import { PayoutsRepository } from './payouts/payouts.repository';
import { ReleaseFunds } from './payouts/release-funds';
import { RecordPayoutSends } from './payouts/record-payout-sends';
import { PayoutsService } from './payouts/payouts.service';
import { PayoutSendsRepository } from './payouts/payout-sends.repository';
import { PayoutSender } from './payouts/payout-sender';
import { PayoutsController } from './payouts/payouts.controller';
import { EscrowSweep } from './payouts/escrow.sweep';

/** The billing-service: invoices, payments and escrow, in the `billing` schema. */
export function billingAppModule(serviceConfig: ServiceConfig & Partial<BillingConfig>): DynamicModule {
  const config = withBillingDefaults(serviceConfig);
  return defineServiceModule(
    { service: 'billing-service', config, ...BILLING_DATABASE,
      // Webhook deduplication records outlive any provider retry by far (ADR 0046).
      retention: (periods) => [{ table: 'provider_events', column: 'received_at', keepMs: periods.providerEventsMs }] },
    {
      imports: [SettingsModule],
      controllers: [BillingStatsController, InvoicesController, PaymentsController, AdminBillingController, TransferController, TransferProofController, PaymentMethodsController, SaleCancellationController, PayoutsController, LedgerController],
      providers: [{ provide: BILLING_CONFIG, useValue: config }, ServiceRpc, InvoicesRepository, InvoicesService, SaleEventsHandler, OverdueSweep, ...PAYMENTS_PROVIDERS, AdminBillingRepository, AdminBillingService, TransferRepository, TransferSteps, TransferService, DisputeEscalationSweep, TransferProofRepository, TransferProofService, ...domainProofProviders(serviceConfig), PaymentMethodsRepository, PaymentMethodsService, UnpaidSalesRepository, EndUnpaidSale, PaymentWindowSweep, SaleCancellationService, MemberEventsHandler, BillingCountsRepository, BillingMetrics,
        // Escrow, payouts and the ledger (D22, ADR 0063).
        BillingClock, EscrowFactsReader, LedgerRepository, LedgerService, ReconciliationService, ReconciliationSweep, PayoutAccountsRepository,
        PayoutAccountsService, PayoutsRepository, ReleaseFunds, PayoutSendsRepository, RecordPayoutSends, PayoutSender, PayoutsService, EscrowSweep],
    },
  );
}
