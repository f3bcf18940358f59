import { centsToDollars, endsHeldSale, payBy } from '@market/domain';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { InvoiceState } from '@market/domain';
import { appendEvent } from '@market/server-kit';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';
import { PAYMENT_EVENT_TYPES, PAYMENT_PROVIDER, type PaymentEvent, type PaymentProvider, type ProviderIntent } from './payment-provider';
import { applyInvoiceEvent, INTENT_COLUMNS, type PaymentIntentRecord } from './payment-intents.repository';
import { paymentEventOf, syncSteps } from './payment-sync';
import { intentLedgerWrites } from './intent-ledger';
import { closeDisputeFor } from '../transfer/close-dispute';
import { LedgerRepository } from '../ledger/ledger.repository';
import { announceHeldSaleEnded } from '../invoices/held-sale-ending';

/** The provider's answer for one intent, taken before the transaction, and the local row's version it was read at. */
interface Snapshot {
  remote: ProviderIntent | null;
  version: string | null;
  /** The last attempt: applied even if the row changed meanwhile. */
  final: boolean;
}

/** The local row changed between the provider's answer and the lock: read the provider again. */
class StaleSnapshot extends Error {}

const SNAPSHOT_ATTEMPTS = 3;

interface LockedInvoice {
  id: string;
  status: InvoiceState;
  invoice_number: string;
  buyer_id: string;
  seller_id: string;
  website_title: string;
}

/**
 * The one place provider events change payments and invoices (D12): the sandbox's events and Stripe's webhooks, routed
 * here by ProviderEventsRouter. An event is recorded once by its id (provider_events); its intent is then reconciled to
 * the provider's current state (syncSteps) with the invoice, under the invoice's and the intent's row locks, in one
 * transaction, with the ledger transaction of each money movement (D22). Replays, duplicates and reordered events
 * therefore end in the same state (ADR 0020).
 */
@Injectable()
export class PaymentEventsHandler {
  private readonly logger = new Logger('PaymentEvents');

  constructor(
    private readonly dataSource: DataSource,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    private readonly ledger: LedgerRepository,
    @Inject(BILLING_CONFIG) private readonly config: Pick<BillingConfig, 'PAYMENT_WINDOW_HOURS'>,
  ) {}

  /** Applies one provider event; `duplicate` when its id was seen before (nothing changes). */
  async handle(event: PaymentEvent): Promise<'applied' | 'duplicate' | 'ignored'> {
    if (!PAYMENT_EVENT_TYPES.includes(event.type)) return 'ignored';
    const [seen]: unknown[] = await this.dataSource.query('SELECT 1 FROM provider_events WHERE id = $1', [event.id]);
    if (seen) return 'duplicate';
    return this.withSnapshot(event.intent_id, (manager, snapshot) => this.recordAndSync(manager, event, snapshot));
  }

  /** Reconciles one intent to the provider now (after the service's own provider calls); null if it is not ours. */
  sync(providerIntentId: string): Promise<PaymentIntentRecord | null> {
    return this.withSnapshot(providerIntentId, (manager, snapshot) => this.syncIn(manager, providerIntentId, snapshot));
  }

  private async recordAndSync(manager: EntityManager, event: PaymentEvent, snapshot: Snapshot): Promise<'applied' | 'duplicate'> {
    const inserted: unknown[] = await manager.query(
      'INSERT INTO provider_events (id, type, provider_intent_id) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id',
      [event.id, event.type, event.intent_id],
    );
    if (inserted.length === 0) return 'duplicate';
    await this.syncIn(manager, event.intent_id, snapshot);
    return 'applied';
  }

  /**
   * Asks the provider outside any transaction, then applies its answer under the row locks (ADR 0047: no provider call
   * while a lock is held). A local change between the two means another reconciliation may have applied a newer answer,
   * so the snapshot is taken again; the last attempt applies anyway, and its timestamps never erase ones already kept.
   */
  private async withSnapshot<T>(providerIntentId: string, apply: (manager: EntityManager, snapshot: Snapshot) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const version = await this.versionOf(this.dataSource.manager, providerIntentId);
      const remote = version === null ? null : await this.provider.retrieve(providerIntentId);
      try {
        return await this.dataSource.transaction((manager) => apply(manager, { remote, version, final: attempt >= SNAPSHOT_ATTEMPTS }));
      } catch (error) {
        if (!(error instanceof StaleSnapshot)) throw error;
      }
    }
  }

  private async versionOf(manager: EntityManager, providerIntentId: string): Promise<string | null> {
    // The database's text of updated_at keeps its microseconds (a JS Date would round them off).
    const [row]: { version: string }[] = await manager.query(
      `SELECT status || '@' || updated_at::text AS version FROM payment_intents WHERE provider_intent_id = $1`,
      [providerIntentId],
    );
    return row?.version ?? null;
  }

  private async syncIn(manager: EntityManager, providerIntentId: string, snapshot: Snapshot): Promise<PaymentIntentRecord | null> {
    const [ref]: { invoice_id: string }[] = await manager.query('SELECT invoice_id FROM payment_intents WHERE provider_intent_id = $1', [providerIntentId]);
    // An intent this service never recorded (its creation did not finish): nothing local to change.
    if (!ref) return null;
    // Invoice first, then intent: the same order as payment creation, so the two never deadlock.
    const [invoice]: LockedInvoice[] = await manager.query(
      'SELECT id, status, invoice_number, buyer_id, seller_id, website_title FROM invoices WHERE id = $1 FOR UPDATE',
      [ref.invoice_id],
    );
    const [local]: PaymentIntentRecord[] = await manager.query(`SELECT ${INTENT_COLUMNS} FROM payment_intents WHERE provider_intent_id = $1 FOR UPDATE`, [
      providerIntentId,
    ]);
    if (!snapshot.final && (await this.versionOf(manager, providerIntentId)) !== snapshot.version) throw new StaleSnapshot();
    const remote = snapshot.remote;
    if (!remote) return local;
    let invoiceStatus = invoice.status;
    let intentStatus = local.status;
    const steps = syncSteps(local.status, local.last_error, remote);
    const [payout]: unknown[] = steps.length > 0 ? await manager.query('SELECT 1 FROM payouts WHERE invoice_id = $1', [invoice.id]) : [];
    for (const step of steps) {
      const before = intentStatus;
      intentStatus = step.to;
      // Every movement of money is a balanced ledger transaction, committed with the change it records (D22).
      for (const write of intentLedgerWrites(local, before, step, remote, Boolean(payout))) await this.ledger.record(manager, write);
      if (!step.invoice) continue;
      const ended = endsHeldSale(invoiceStatus, step.invoice);
      const next = await applyInvoiceEvent(manager, invoice.id, invoiceStatus, step.invoice);
      if (next === null) continue;
      // The money moved while disputed: the dispute ends with it, in this transaction (ADR 0039).
      if (invoiceStatus === 'disputed') await closeDisputeFor(manager, invoice, step.invoice);
      // The buyer has the money back: the sale is unwound like an unpaid one (ADR 0043, 0063).
      if (ended) await announceHeldSaleEnded(manager, invoice.id, new Date());
      // A hold that lapsed uncaptured makes the invoice payable again (D11) within a new payment window, so it ends either way.
      if (step.invoice === 'hold_expired' && next === 'payment_canceled') {
        await manager.query('UPDATE invoices SET pay_by = $2 WHERE id = $1', [invoice.id, payBy(new Date(), this.config.PAYMENT_WINDOW_HOURS)]);
      }
      invoiceStatus = next;
      // Told once per real transition, in its transaction (D19); a released hold is a refund to the buyer.
      const told = paymentEventOf(step.invoice, before);
      if (told) {
        await appendEvent(manager, told, {
          payment_intent_id: local.id,
          invoice_id: invoice.id,
          invoice_number: invoice.invoice_number,
          buyer_id: invoice.buyer_id,
          seller_id: invoice.seller_id,
          website_title: invoice.website_title,
          amount: centsToDollars(local.amount_cents),
          at: new Date().toISOString(),
          // A sandbox payment moved no real money; its emails say so (ADR 0033).
          test_mode: local.provider === 'sandbox',
        });
      }
      if (step.invoice === 'hold_expired' && next === 'payment_canceled') {
        await appendEvent(manager, 'invoice.hold_expired', {
          invoice_id: invoice.id,
          invoice_number: invoice.invoice_number,
          buyer_id: invoice.buyer_id,
          seller_id: invoice.seller_id,
          website_title: invoice.website_title,
          payment_intent_id: local.id,
          expired_at: (remote.canceled_at ?? new Date()).toISOString(),
          test_mode: local.provider === 'sandbox',
        });
      }
    }
    const status = steps.length > 0 ? steps[steps.length - 1].to : local.status;
    if (steps.length > 0) this.logger.log(`Payment ${local.id}: ${local.status} -> ${status}; invoice ${invoice.invoice_number}: ${invoiceStatus}`);
    const [[updated]]: [PaymentIntentRecord[]] = await manager.query(
      `UPDATE payment_intents SET status = $2, authorized_at = COALESCE($3, authorized_at), captured_at = COALESCE($4, captured_at),
         succeeded_at = COALESCE($4, succeeded_at), refunded_at = COALESCE($5, refunded_at), canceled_at = COALESCE($6, canceled_at),
         last_error = $7, charge_id = COALESCE($8, charge_id), updated_at = clock_timestamp()
       WHERE id = $1 RETURNING ${INTENT_COLUMNS}`,
      [local.id, status, remote.authorized_at, remote.captured_at, remote.refunded_at, remote.canceled_at, remote.last_error, remote.charge_id],
    );
    return updated;
  }
}
