import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { HOLD_DAYS, invoiceTransition, type InvoiceEvent, type InvoiceState, type PaymentIntentStatus } from '@market/domain';

/** A payment intent row as stored (billing.payment_intents). */
export interface PaymentIntentRecord {
  id: string;
  provider: 'sandbox' | 'stripe';
  provider_intent_id: string;
  invoice_id: string;
  amount_cents: number;
  currency: string;
  status: PaymentIntentStatus;
  capture_method: string;
  client_secret: string;
  idempotency_key: string;
  created_at: Date;
  authorized_at: Date | null;
  captured_at: Date | null;
  succeeded_at: Date | null;
  refunded_at: Date | null;
  canceled_at: Date | null;
  last_error: string | null;
  /** The authorised charge (a payout's source), once the provider named it. */
  charge_id: string | null;
}

/** An intent with its invoice's title, number, status and transfer checklist (admin Payments tab). */
export interface AdminPaymentIntentRecord extends PaymentIntentRecord {
  website_title: string;
  invoice_number: string;
  invoice_status: InvoiceState;
  transfer_started_at: Date | null;
  transfer_received_at: Date | null;
  transfer_verified_at: Date | null;
}
const ADMIN_INVOICE_COLUMNS =
  'i.website_title, i.invoice_number, i.status AS invoice_status, i.transfer_started_at, i.transfer_received_at, i.transfer_verified_at';

/** The selected columns of payment_intents, qualified by `alias` when given (joins with invoices). */
function intentColumns(alias = ''): string {
  const p = alias ? `${alias}.` : '';
  return `${p}id, ${p}provider, ${p}provider_intent_id, ${p}invoice_id, ${p}amount_cents::float8 AS amount_cents, ${p}currency, ${p}status,
  ${p}capture_method, ${p}client_secret, ${p}idempotency_key, ${p}created_at, ${p}authorized_at, ${p}captured_at, ${p}succeeded_at,
  ${p}refunded_at, ${p}canceled_at, ${p}last_error, ${p}charge_id`;
}
export const INTENT_COLUMNS = intentColumns();
/** Statuses the partial unique index allows once per invoice: a payment underway or holding funds. */
export const OPEN_STATUSES: PaymentIntentStatus[] = ['requires_payment_method', 'requires_confirmation', 'processing', 'requires_capture'];

/** The only place that reads and writes billing.payment_intents (the events handler updates rows it reconciles). */
@Injectable()
export class PaymentIntentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findById(id: string): Promise<PaymentIntentRecord | null> {
    const [row]: PaymentIntentRecord[] = await this.dataSource.query(`SELECT ${INTENT_COLUMNS} FROM payment_intents WHERE id = $1`, [id]);
    return row ?? null;
  }

  async findByProviderId(providerIntentId: string): Promise<PaymentIntentRecord | null> {
    const [row]: PaymentIntentRecord[] = await this.dataSource.query(`SELECT ${INTENT_COLUMNS} FROM payment_intents WHERE provider_intent_id = $1`, [
      providerIntentId,
    ]);
    return row ?? null;
  }

  async findOpen(invoiceId: string): Promise<PaymentIntentRecord | null> {
    const [row]: PaymentIntentRecord[] = await this.dataSource.query(
      `SELECT ${INTENT_COLUMNS} FROM payment_intents WHERE invoice_id = $1 AND status = ANY($2::text[])`,
      [invoiceId, OPEN_STATUSES],
    );
    return row ?? null;
  }

  /**
   * How many of an invoice's intents are closed (canceled or failed): the next attempt's number, and so its idempotency
   * key. It does not change while an intent is open, so callers racing to open one derive the same key.
   */
  async closedCount(invoiceId: string): Promise<number> {
    const [{ count }]: { count: number }[] = await this.dataSource.query(
      'SELECT count(*)::int AS count FROM payment_intents WHERE invoice_id = $1 AND NOT (status = ANY($2::text[]))',
      [invoiceId, OPEN_STATUSES],
    );
    return count;
  }

  /**
   * Records a new intent and starts the invoice's payment (payment_started), under the invoice's row lock, unless the
   * invoice already has an open intent (the partial unique index) or this key was recorded: then null.
   */
  async insertStarted(
    intent: Pick<PaymentIntentRecord, 'provider' | 'provider_intent_id' | 'invoice_id' | 'amount_cents' | 'client_secret' | 'idempotency_key'>,
  ): Promise<PaymentIntentRecord | null> {
    return this.dataSource.transaction(async (manager) => {
      const [invoice]: { status: InvoiceState }[] = await manager.query('SELECT status FROM invoices WHERE id = $1 FOR UPDATE', [intent.invoice_id]);
      const [inserted]: PaymentIntentRecord[] = await manager.query(
        `INSERT INTO payment_intents (id, provider, provider_intent_id, invoice_id, amount_cents, status, client_secret, idempotency_key)
         VALUES ($1, $2, $3, $4, $5, 'requires_payment_method', $6, $7) ON CONFLICT DO NOTHING RETURNING ${INTENT_COLUMNS}`,
        [randomUUID(), intent.provider, intent.provider_intent_id, intent.invoice_id, intent.amount_cents, intent.client_secret, intent.idempotency_key],
      );
      if (!inserted) return null;
      await applyInvoiceEvent(manager, intent.invoice_id, invoice.status, 'payment_started');
      return inserted;
    });
  }

  /** The invoice's intent that holds its money: an uncaptured hold, or captured funds not refunded (D22). */
  async findHolding(invoiceId: string): Promise<PaymentIntentRecord | null> {
    const [row]: PaymentIntentRecord[] = await this.dataSource.query(
      `SELECT ${INTENT_COLUMNS} FROM payment_intents WHERE invoice_id = $1 AND (status = 'requires_capture' OR (status = 'succeeded' AND refunded_at IS NULL))
       ORDER BY created_at DESC LIMIT 1`,
      [invoiceId],
    );
    return row ?? null;
  }

  /** Which of these invoices have captured funds not refunded: the only money a payout may come from (D22). */
  async capturedOf(invoiceIds: string[]): Promise<Set<string>> {
    if (invoiceIds.length === 0) return new Set();
    const rows: { invoice_id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT invoice_id FROM payment_intents WHERE invoice_id = ANY($1::uuid[]) AND status = 'succeeded' AND refunded_at IS NULL`,
      [invoiceIds],
    );
    return new Set(rows.map((r) => r.invoice_id));
  }

  /** Which of these invoices still have an uncaptured hold (released funds are captured first, D22). */
  async uncapturedOf(invoiceIds: string[]): Promise<string[]> {
    if (invoiceIds.length === 0) return [];
    const rows: { invoice_id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT invoice_id FROM payment_intents WHERE invoice_id = ANY($1::uuid[]) AND status = 'requires_capture'`,
      [invoiceIds],
    );
    return rows.map((r) => r.invoice_id);
  }

  /**
   * Provider ids of holds to capture into escrow now (D22): funds held for the invoice, disputed or not, and the seller
   * started the transfer or the hold's capture is due (`dueBefore`: authorised before now less 7 days plus the lead).
   */
  async holdsToCapture(dueBefore: Date, limit: number): Promise<string[]> {
    const rows: { provider_intent_id: string }[] = await this.dataSource.query(
      `SELECT p.provider_intent_id FROM payment_intents p JOIN invoices i ON i.id = p.invoice_id
       WHERE p.status = 'requires_capture' AND i.status IN ('payment_authorized', 'disputed')
         AND (i.transfer_started_at IS NOT NULL OR p.authorized_at <= $1)
         -- One payment's money per invoice: a second hold beside captured funds is never captured.
         AND NOT EXISTS (SELECT 1 FROM payment_intents o WHERE o.invoice_id = p.invoice_id AND o.status = 'succeeded' AND o.refunded_at IS NULL)
       ORDER BY p.authorized_at LIMIT $2`,
      [dueBefore, limit],
    );
    return rows.map((r) => r.provider_intent_id);
  }

  /** Every intent with its invoice's title, newest first (admin Payments tab). */
  listWithInvoices(limit: number): Promise<AdminPaymentIntentRecord[]> {
    return this.dataSource.query(
      `SELECT ${intentColumns('p')}, ${ADMIN_INVOICE_COLUMNS}
       FROM payment_intents p JOIN invoices i ON i.id = p.invoice_id ORDER BY p.created_at DESC, p.id LIMIT $1`,
      [limit],
    );
  }

  async findWithInvoice(id: string): Promise<AdminPaymentIntentRecord | null> {
    const [row]: AdminPaymentIntentRecord[] = await this.dataSource.query(
      `SELECT ${intentColumns('p')}, ${ADMIN_INVOICE_COLUMNS}
       FROM payment_intents p JOIN invoices i ON i.id = p.invoice_id WHERE p.id = $1`,
      [id],
    );
    return row ?? null;
  }

  /**
   * Provider ids of holds whose capture deadline (authorisation + 7 days, D11) has passed. A disputed invoice's hold is
   * never among them: only an admin's decision ends it (ADR 0039).
   */
  async lapsedHolds(now: Date, limit = 100): Promise<string[]> {
    const rows: { provider_intent_id: string }[] = await this.dataSource.query(
      `SELECT p.provider_intent_id FROM payment_intents p JOIN invoices i ON i.id = p.invoice_id
       WHERE p.status = 'requires_capture' AND p.authorized_at <= $1 AND i.status <> 'disputed' ORDER BY p.authorized_at LIMIT $2`,
      [new Date(now.getTime() - HOLD_DAYS * 24 * 3600_000), limit],
    );
    return rows.map((r) => r.provider_intent_id);
  }
}

/**
 * Moves a locked invoice by the domain's transition table (D10, ADR 0018); returns its new status, or null when the
 * event does not apply in its status (a late provider notice is then ignored). A sale whose held funds went back to the
 * buyer becomes `cancelled` with the reason `refunded` (D22, ADR 0063); the caller writes its sale.lapsed.
 */
export async function applyInvoiceEvent(manager: EntityManager, invoiceId: string, status: InvoiceState, event: InvoiceEvent): Promise<InvoiceState | null> {
  const next = invoiceTransition(status, event);
  if (next === null) return null;
  await manager.query(
    `UPDATE invoices SET status = $2, updated_at = now(),
       paid_at = CASE WHEN $2 = 'paid' THEN now() WHEN status = 'paid' THEN NULL ELSE paid_at END,
       -- A new hold starts without an earlier payment's release mark (ADR 0039); a capture keeps it.
       release_started_at = CASE WHEN $3 = 'payment_authorized' THEN NULL ELSE release_started_at END,
       cancelled_at = CASE WHEN $2 = 'cancelled' THEN now() ELSE cancelled_at END,
       cancel_reason = CASE WHEN $2 = 'cancelled' THEN 'refunded' ELSE cancel_reason END
     WHERE id = $1`,
    [invoiceId, next, event],
  );
  return next;
}
