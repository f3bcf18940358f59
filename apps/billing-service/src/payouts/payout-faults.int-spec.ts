import type { DataSource } from 'typeorm';
import type { Actor } from '@market/contracts';
import type { TestDatabase } from '@market/server-kit/testing';
import { heldSale, onboard, openBillingDatabase, wireBilling, type BillingUnderTest } from '../testing/billing-under-test';
import { ledgerState } from '../testing/ledger-checks';
import { SandboxProvider } from '../payments/sandbox.provider';
import type { ConnectProvider } from '../payments/payment-provider';

const admin: Actor = { user_id: '00000000-0000-4000-8000-00000000a002', role: 'admin' };

/**
 * The provider failing in the middle of a payout (D22): the funds stay held and the invoice `payment_authorized` until
 * the transfer is confirmed, and every retry is the same transfer, so the seller is paid exactly once.
 */
describe('payouts when the provider fails mid-transfer', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let sandbox: SandboxProvider;
  let b: BillingUnderTest;
  /** How the next transfers fail: before the provider made them, or after (the answer lost). */
  let fault: 'none' | 'before' | 'after' | 'capture' = 'none';

  const transfersOf = (invoiceId: string): Promise<unknown[]> => ds.query('SELECT id FROM sandbox_transfers WHERE transfer_group = $1', [invoiceId]);
  const payoutOf = async (invoiceId: string) => b.payoutRecords.findByInvoice(invoiceId);

  beforeAll(async () => {
    ({ db, ds } = await openBillingDatabase('billing_payout_faults'));
    sandbox = new SandboxProvider(ds, 'https://market.example');
    const faultyConnect = new Proxy(sandbox.connect, {
      get(target, key, receiver) {
        if (key !== 'createTransfer') return Reflect.get(target, key, receiver);
        return async (input: Parameters<ConnectProvider['createTransfer']>[0]) => {
          if (fault === 'before') throw new Error('connect ETIMEDOUT api.provider.test');
          const transfer = await target.createTransfer(input);
          if (fault === 'after') throw new Error('socket hang up');
          return transfer;
        };
      },
    });
    const faulty = new Proxy(sandbox, {
      get(target, key, receiver) {
        if (key === 'connect') return faultyConnect;
        if (key === 'capture' && fault === 'capture') return async () => Promise.reject(new Error('503 Service Unavailable'));
        return Reflect.get(target, key, receiver);
      },
    });
    b = wireBilling(ds, { provider: faulty });
  });
  afterEach(() => {
    fault = 'none';
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('keeps the funds held when the transfer never reached the provider, and the retry pays once', async () => {
    const sale = await heldSale(b);
    await onboard(b, sale.seller);
    fault = 'before';
    const answer = await b.payments.capture(admin, sale.intentId, {});
    expect(answer.message).toMatch(/could not be sent just now; it stays held/);
    expect(await payoutOf(sale.invoice.id)).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringMatching(/ETIMEDOUT/) });
    expect((await b.invoices.findById(sale.invoice.id))?.status).toBe('payment_authorized');
    expect(await transfersOf(sale.invoice.id)).toHaveLength(0);
    expect(await ledgerState(ds)).toMatchObject({ unbalanced: 0, escrowMatchesHeldInvoices: true, payablesMatchUnsentPayouts: true });

    fault = 'none';
    await b.escrowSweep.sweep();
    expect(await payoutOf(sale.invoice.id)).toMatchObject({ status: 'paid' });
    expect(await transfersOf(sale.invoice.id)).toHaveLength(1);
    expect((await b.invoices.findById(sale.invoice.id))?.status).toBe('paid');
  });

  it('pays once when the provider made the transfer but its answer was lost, whatever retries follow', async () => {
    const sale = await heldSale(b);
    await onboard(b, sale.seller);
    fault = 'after';
    // The answer is lost but the provider's transfer.created notice still arrives: it marks the payout paid.
    await b.payments.capture(admin, sale.intentId, {});
    await b.escrowSweep.sweep();
    await b.payments.capture(admin, sale.intentId, {});
    fault = 'none';
    await b.escrowSweep.sweep();
    expect(await transfersOf(sale.invoice.id)).toHaveLength(1);
    expect(await payoutOf(sale.invoice.id)).toMatchObject({ status: 'paid' });
    expect((await b.ledger.forInvoice(sale.invoice.id)).filter((t) => t.kind === 'payout')).toHaveLength(1);
    expect(await ledgerState(ds)).toMatchObject({ unbalanced: 0, total: 0, payablesMatchUnsentPayouts: true });
  });

  it('finds the transfer already made when neither the answer nor the notice came back', async () => {
    const sale = await heldSale(b);
    await onboard(b, sale.seller);
    fault = 'after';
    // Notices are lost too: the sandbox keeps them for redelivery, as a provider retries webhooks.
    const listener = (sandbox as unknown as { listener: unknown }).listener;
    (sandbox as unknown as { listener: unknown }).listener = null;
    try {
      await b.payments.capture(admin, sale.intentId, {});
    } finally {
      (sandbox as unknown as { listener: unknown }).listener = listener;
    }
    expect(await payoutOf(sale.invoice.id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await b.invoices.findById(sale.invoice.id))?.status).toBe('payment_authorized');
    fault = 'none';
    // The retry looks for the invoice's transfer before making one: it finds it and records it.
    await b.escrowSweep.sweep();
    expect(await transfersOf(sale.invoice.id)).toHaveLength(1);
    expect(await payoutOf(sale.invoice.id)).toMatchObject({ status: 'paid' });
  });

  it('refuses a release while the provider cannot capture, leaving the hold and no payout', async () => {
    const sale = await heldSale(b);
    await onboard(b, sale.seller);
    fault = 'capture';
    await expect(b.payments.capture(admin, sale.intentId, {})).rejects.toMatchObject({ status: 409, detail: expect.stringMatching(/could not capture.*stay held/) });
    expect(await payoutOf(sale.invoice.id)).toBeNull();
    expect((await ds.query('SELECT status FROM payment_intents WHERE id = $1', [sale.intentId]))[0].status).toBe('requires_capture');
  });

  it('keeps payouts and accounts to their own seller', async () => {
    const sale = await heldSale(b);
    await onboard(b, sale.seller);
    await b.payments.capture(admin, sale.intentId, {});
    const stranger: Actor = { user_id: '00000000-0000-4000-8000-0000000000ff', role: 'regular' };
    expect(await b.payouts.sellerPayouts(stranger)).toEqual({ balance: { in_escrow: 0, paid_out: 0, fees: 0 }, payouts: [] });
    expect((await b.payouts.sellerPayouts(sale.buyer)).payouts).toEqual([]);
    expect(await b.accounts.get(stranger)).toEqual({ status: 'not_started', requirements_due: [] });
    // Another seller's onboarding link does not exist for anyone else.
    const { url } = await b.accounts.onboarding(sale.seller);
    const linkId = new URL(url).pathname.split('/').pop() as string;
    await expect(b.accounts.sandboxComplete(stranger, linkId, { outcome: 'restricted' })).rejects.toMatchObject({ status: 404 });
    await expect(b.accounts.sandboxLink(sale.buyer, linkId)).rejects.toMatchObject({ status: 404 });
    // A seller acting through an impersonating admin cannot point payouts anywhere.
    await expect(b.accounts.onboarding({ ...sale.seller, impersonator_id: admin.user_id })).rejects.toMatchObject({ status: 403 });
    expect((await b.accounts.get(sale.seller)).status).toBe('enabled');
  });
});

/** What the attack review of ADR 0063 found, each now refused or healed: the money always goes one way, once. */
describe('payouts against refunds, crashes and strangers', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let sandbox: SandboxProvider;
  let b: BillingUnderTest;
  /** When set, the provider's refund waits for it: the window in which a release would once slip in. */
  let refundGate: Promise<void> | null = null;

  beforeAll(async () => {
    ({ db, ds } = await openBillingDatabase('billing_payout_review'));
    sandbox = new SandboxProvider(ds, 'https://market.example');
    const slow = new Proxy(sandbox, {
      get(target, key, receiver) {
        if (key === 'refund' || key === 'cancel') {
          return async (...args: [string, never]) => {
            if (refundGate) await refundGate;
            return (target[key] as (...a: [string, never]) => Promise<unknown>).apply(target, args);
          };
        }
        return Reflect.get(target, key, receiver);
      },
    });
    b = wireBilling(ds, { provider: slow });
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('claims the invoice for a refund before asking the provider, so no release slips in while it answers', async () => {
    const sale = await heldSale(b);
    await onboard(b, sale.seller);
    await b.transfer.markTransferStarted(sale.seller, sale.invoice.id);
    let open: () => void = () => undefined;
    refundGate = new Promise((resolve) => (open = resolve));
    const refunding = b.payments.refund(admin, sale.intentId, {});
    // While the provider takes its time, a release by an admin and by the sweep are both refused.
    // The claim commits before the provider is asked: wait for it (a few turns of the event loop).
    for (let i = 0; i < 200 && !(await ds.query('SELECT refund_started_at FROM invoices WHERE id = $1', [sale.invoice.id]))[0].refund_started_at; i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    await expect(b.payments.capture(admin, sale.intentId, {})).rejects.toMatchObject({ status: 409, detail: expect.stringMatching(/refund of this invoice is under way/) });
    expect(await b.payouts.releaseMany([sale.invoice.id], { by: 'inspection' })).toBe(0);
    refundGate = null;
    open();
    await refunding;
    expect(await b.payoutRecords.findByInvoice(sale.invoice.id)).toBeNull();
    expect(await b.invoices.findById(sale.invoice.id)).toMatchObject({ status: 'cancelled', cancel_reason: 'refunded' });
    expect(await ledgerState(ds)).toMatchObject({ unbalanced: 0, total: 0, escrowMatchesHeldInvoices: true, platformBalanceMatchesProvider: true });
  });

  it('never sends a payout whose buyer was refunded outside the platform, and the reconciliation shows the refund', async () => {
    const sale = await heldSale(b);
    await b.payments.capture(admin, sale.intentId, {});
    expect(await b.payoutRecords.findByInvoice(sale.invoice.id)).toMatchObject({ status: 'waiting_for_account' });
    // Someone refunds the charge in the provider's dashboard; then the seller onboards.
    const providerId = (await ds.query('SELECT provider_intent_id FROM payment_intents WHERE id = $1', [sale.intentId]))[0].provider_intent_id;
    await sandbox.refund(providerId);
    await onboard(b, sale.seller);
    expect(await ds.query('SELECT id FROM sandbox_transfers WHERE transfer_group = $1', [sale.invoice.id])).toHaveLength(0);
    expect(await b.payoutRecords.findByInvoice(sale.invoice.id)).toMatchObject({ last_error: expect.stringMatching(/refunded or canceled after the release/) });
    const run = await b.reconciliation.run(new Date(Date.now() + 10 * 60_000), 1);
    expect((await b.reconciliation.openDifferences(10)).map((d) => d.kind)).toContain('missing_in_ledger');
    expect(run.unreconciled).toBeGreaterThan(0);
  });

  it('finds the transfer it made when recording it failed, rather than paying again', async () => {
    const sale = await heldSale(b);
    await onboard(b, sale.seller);
    // Recording fails as if PostgreSQL went away right after the provider made the transfer (its notice lost too).
    const sends = b.payoutBooks as unknown as Record<'markSentMany' | 'markSent', (...args: unknown[]) => Promise<unknown>>;
    const [many, one] = [sends.markSentMany, sends.markSent];
    sends.markSentMany = async () => Promise.reject(new Error('Connection terminated unexpectedly'));
    sends.markSent = async () => Promise.reject(new Error('Connection terminated unexpectedly'));
    const listener = (sandbox as unknown as { listener: unknown }).listener;
    (sandbox as unknown as { listener: unknown }).listener = null;
    try {
      await b.payments.capture(admin, sale.intentId, {});
    } finally {
      sends.markSentMany = many;
      sends.markSent = one;
      (sandbox as unknown as { listener: unknown }).listener = listener;
    }
    expect(await b.payoutRecords.findByInvoice(sale.invoice.id)).toMatchObject({ status: 'pending', attempts: 1 });
    await b.escrowSweep.sweep();
    expect(await ds.query('SELECT id FROM sandbox_transfers WHERE transfer_group = $1', [sale.invoice.id])).toHaveLength(1);
    expect(await b.payoutRecords.findByInvoice(sale.invoice.id)).toMatchObject({ status: 'paid', attempts: 2 });
  });

  it("ignores a transfer that is not an invoice's, and never captures a second hold beside captured funds", async () => {
    const stray = await sandbox.connect.createAccount({ user_id: '00000000-0000-4000-8000-0000000000aa', idempotency_key: 'stray' });
    await ds.query('UPDATE sandbox_accounts SET payouts_enabled = true WHERE id = $1', [stray.id]);
    const transfer = await sandbox.connect.createTransfer({ amount_cents: 500, currency: 'usd', destination: stray.id, transfer_group: 'ORDER_95', source_transaction: null, idempotency_key: 'stray-1', metadata: {} });
    expect(await b.router.handle({ id: 'evt_stray', type: 'transfer.created', transfer_id: transfer.id, at: new Date() })).toBe('ignored');

    const sale = await heldSale(b);
    await b.transfer.markTransferStarted(sale.seller, sale.invoice.id);
    await ds.query(
      `INSERT INTO payment_intents (id, provider, provider_intent_id, invoice_id, amount_cents, status, client_secret, idempotency_key, authorized_at)
       VALUES (gen_random_uuid(), 'sandbox', 'pi_second_hold', $1, 120000, 'requires_capture', 'x', 'second-hold', now() - interval '7 days')`,
      [sale.invoice.id],
    );
    expect(await b.intents.holdsToCapture(new Date(), 100)).not.toContain('pi_second_hold');
  });
});
