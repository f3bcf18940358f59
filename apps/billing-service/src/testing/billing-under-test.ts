import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { DEFAULT_SETTINGS, type Actor, type PlatformSettings } from '@market/contracts';
import { KIT_MIGRATIONS, openServiceDatabase, type ServiceRpc, type SettingsClient } from '@market/server-kit';
import { createTestDatabase, type TestDatabase, signingAs } from '@market/server-kit/testing';
import { BILLING_DATABASE } from '../billing.database';
import { withBillingDefaults, type BillingConfig } from '../billing.config';
import { BillingClock } from '../clock/billing-clock';
import { InvoicesRepository, type InvoiceRecord, type SaleFacts } from '../invoices/invoices.repository';
import { EscrowFactsReader } from '../invoices/escrow-facts.reader';
import { LedgerRepository } from '../ledger/ledger.repository';
import { ReconciliationService } from '../ledger/reconciliation.service';
import { EscrowService } from '../payments/escrow.service';
import { HoldExpirySweep } from '../payments/hold-expiry.sweep';
import { PaymentAdminActs } from '../payments/payment-admin-acts';
import { PaymentEventsHandler } from '../payments/payment-events.handler';
import { PaymentIntentsRepository } from '../payments/payment-intents.repository';
import type { PaymentProvider } from '../payments/payment-provider';
import { PaymentsService } from '../payments/payments.service';
import { ProviderEventsRouter } from '../payments/provider-events.router';
import { SandboxProvider } from '../payments/sandbox.provider';
import { PayoutAccountsRepository } from '../payouts/payout-accounts.repository';
import { PayoutAccountsService } from '../payouts/payout-accounts.service';
import { PayoutsRepository } from '../payouts/payouts.repository';
import { ReleaseFunds } from '../payouts/release-funds';
import { TransferSteps } from '../transfer/transfer-steps';
import { RecordPayoutSends } from '../payouts/record-payout-sends';
import { PayoutsService } from '../payouts/payouts.service';
import { PayoutSendsRepository } from '../payouts/payout-sends.repository';
import { PayoutSender } from '../payouts/payout-sender';
import { EscrowSweep } from '../payouts/escrow.sweep';
import { TransferRepository } from '../transfer/transfer.repository';
import { TransferService } from '../transfer/transfer.service';

export const SITE = 'https://market.example';
/** The profiles lookup answering no names: invoices show "Unknown user", which these tests never read. */
export const NO_NAMES = { call: async () => ({ profiles: [] }) } as unknown as ServiceRpc;

/** Platform settings a test controls (admin-service's answer over NATS is the system tests' concern). */
export class TestSettings {
  value: PlatformSettings = { ...DEFAULT_SETTINGS };
  /** When set, the settings cannot be read (admin-service down, none known yet). */
  down = false;
  async get(): Promise<PlatformSettings> {
    if (this.down) throw new Error('Settings unavailable and none known yet');
    return this.value;
  }
}

/** A clock a test moves forward (billing's BillingClock with an offset held in memory). */
export class TestClock extends BillingClock {
  /** How far ahead of the system clock billing's decisions are made. */
  ahead = 0;
  constructor() {
    super({ BILLING_CLOCK_FILE: undefined });
  }
  override now(): Date {
    return new Date(Date.now() + this.ahead);
  }
}

/** billing's services wired by hand over one database and one provider, as the app module wires them. */
export interface BillingUnderTest {
  ds: DataSource;
  provider: PaymentProvider;
  config: BillingConfig;
  settings: TestSettings;
  clock: TestClock;
  invoices: InvoicesRepository;
  intents: PaymentIntentsRepository;
  ledger: LedgerRepository;
  handler: PaymentEventsHandler;
  router: ProviderEventsRouter;
  escrow: EscrowService;
  payments: PaymentsService;
  transferRepository: TransferRepository;
  transfer: TransferService;
  payoutRecords: PayoutsRepository;
  payoutSends: PayoutSendsRepository;
  /** What a provider's transfer does to the books (RecordPayoutSends): a test may make its writes fail. */
  payoutBooks: RecordPayoutSends;
  sender: PayoutSender;
  accountRecords: PayoutAccountsRepository;
  payouts: PayoutsService;
  accounts: PayoutAccountsService;
  escrowSweep: EscrowSweep;
  holdSweep: HoldExpirySweep;
  reconciliation: ReconciliationService;
}

/** Wires billing over `ds`; `provider` defaults to the sandbox (a test may wrap it to fail on purpose). */
export function wireBilling(ds: DataSource, options: { provider?: PaymentProvider; config?: Partial<BillingConfig>; listen?: boolean } = {}): BillingUnderTest {
  const config = withBillingDefaults({ PUBLIC_URL: SITE, ...options.config } as BillingConfig);
  const provider = options.provider ?? new SandboxProvider(ds, SITE);
  const settings = new TestSettings();
  const clock = new TestClock();
  const kitSettings = settings as unknown as SettingsClient;
  const invoices = new InvoicesRepository(ds);
  const intents = new PaymentIntentsRepository(ds);
  const ledger = new LedgerRepository(ds);
  const handler = new PaymentEventsHandler(ds, provider, ledger, config);
  const transferRepository = new TransferRepository(ds);
  const transferSteps = new TransferSteps(transferRepository);
  const escrow = new EscrowService(intents, handler, transferSteps, provider);
  const payoutRecords = new PayoutsRepository(ds);
  const payoutSends = new PayoutSendsRepository(ds);
  const payoutBooks = new RecordPayoutSends(payoutSends, ledger);
  const accountRecords = new PayoutAccountsRepository(ds);
  const sender = new PayoutSender(payoutSends, payoutBooks, accountRecords, intents, provider);
  const payouts = new PayoutsService(payoutRecords, new ReleaseFunds(payoutRecords, ledger), accountRecords, intents, invoices, escrow, sender, payoutBooks, transferRepository, provider);
  const accounts = new PayoutAccountsService(accountRecords, sender, provider, config);
  const router = new ProviderEventsRouter(ds, handler, accounts, payouts, provider);
  // A wrapped provider (a test's fault injection) hands its events to the same router through the one it wraps.
  if (options.listen !== false) router.onModuleInit();
  const payments = new PaymentsService(intents, invoices, handler, new PaymentAdminActs(ds), transferRepository, payoutRecords, accountRecords, payouts, escrow, provider, config);
  const escrowFacts = new EscrowFactsReader(ds, kitSettings);
  const transfer = new TransferService(transferSteps, transferRepository, invoices, intents, handler, NO_NAMES, escrow, payouts, payoutRecords, kitSettings, escrowFacts, provider);
  const escrowSweep = new EscrowSweep(intents, escrow, payouts, sender, payoutRecords, kitSettings, clock, config);
  const holdSweep = new HoldExpirySweep(intents, handler, provider, config);
  const reconciliation = new ReconciliationService(ds, provider);
  return {
    ds, provider, config, settings, clock, invoices, intents, ledger, handler, router, escrow, payments, transferRepository, transfer, payoutRecords, payoutSends, payoutBooks, sender, accountRecords,
    payouts, accounts, escrowSweep, holdSweep, reconciliation,
  };
}

/** A fresh billing database with every migration, and its data source. */
export async function openBillingDatabase(name: string): Promise<{ db: TestDatabase; ds: DataSource }> {
  const db = await createTestDatabase(name);
  const ds = signingAs(await openServiceDatabase({ url: db.url, schema: 'billing', entities: [], migrations: [...KIT_MIGRATIONS, ...BILLING_DATABASE.migrations], poolSize: 12 }), 'billing-service');
  return { db, ds };
}

/** A member acting for themselves. */
export const member = (): Actor => ({ user_id: randomUUID(), role: 'regular' });

/** An invoice for a new sale between two members (whole dollars; `percent` the success fee in force). */
export async function saleInvoice(invoices: InvoicesRepository, parties: { buyer: Actor; seller: Actor }, over: Partial<SaleFacts> = {}): Promise<InvoiceRecord> {
  const { invoice } = await invoices.createForSale(
    {
      bid_id: randomUUID(),
      listing_id: randomUUID(),
      buyer_id: parties.buyer.user_id,
      seller_id: parties.seller.user_id,
      website_title: 'Recipe blog',
      website_url: null,
      sale_type: 'buy_now',
      amount: 1200,
      success_fee_percent: 5,
      payment_window_hours: 48,
      ...over,
    },
    new Date(),
  );
  return invoice;
}

/** The sandbox's test card that succeeds. */
export const card = (clientSecret: string, number = '4242 4242 4242 4242') => ({ client_secret: clientSecret, card_number: number, exp_month: 12, exp_year: 2099, cvc: '123' });

/** A sale paid with 4242: the buyer's funds held (payment_authorized). Answers the invoice and the payment's id. */
export async function heldSale(b: BillingUnderTest, over: Partial<SaleFacts> = {}) {
  const buyer = member();
  const seller = member();
  const invoice = await saleInvoice(b.invoices, { buyer, seller }, over);
  const created = await b.payments.createPayment(buyer, invoice.id);
  await b.payments.sandboxConfirm(buyer, created.payment_intent_id, card(created.client_secret));
  return { buyer, seller, invoice, intentId: created.payment_intent_id };
}

/** The seller completes the sandbox's onboarding with `outcome` (its one button by default). */
export async function onboard(b: BillingUnderTest, seller: Actor, outcome: 'complete' | 'pending_verification' | 'restricted' = 'complete') {
  const { url } = await b.accounts.onboarding(seller);
  const linkId = new URL(url).pathname.split('/').pop() as string;
  return b.accounts.sandboxComplete(seller, linkId, { outcome });
}
