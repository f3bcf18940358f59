import type { ServiceDatabase } from '@market/server-kit';
import { CreateInvoices1763801200000 } from './migrations/1763801200000-create-invoices';
import { CreatePayments1763801300000 } from './migrations/1763801300000-create-payments';
import { AdminPaymentActs1764400000000 } from './migrations/1764400000000-admin-payment-acts';
import { TransferAndDisputes1764520000000 } from './migrations/1764520000000-transfer-and-disputes';
import { TransferProofs1764530100000 } from './migrations/1764530100000-transfer-proofs';
import { PaymentMethods1764500000000 } from './migrations/1764500000000-payment-methods';
import { PaymentWindow1764550000000 } from './migrations/1764550000000-payment-window';
import { ProviderEventsRetention1764560000000 } from './migrations/1764560000000-provider-events-retention';
import { EscrowPayoutsLedger1765000000000 } from './migrations/1765000000000-escrow-payouts-ledger';

/** The `billing` schema: what the billing-service and its migrate step (ADR 0053) open. */
export const BILLING_DATABASE: ServiceDatabase = {
  schema: 'billing',
  entities: [],
  migrations: [CreateInvoices1763801200000, CreatePayments1763801300000, AdminPaymentActs1764400000000, TransferAndDisputes1764520000000, TransferProofs1764530100000, PaymentMethods1764500000000, PaymentWindow1764550000000, ProviderEventsRetention1764560000000, EscrowPayoutsLedger1765000000000],
};
