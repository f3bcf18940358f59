import fc from 'fast-check';
import {
  authorizationEntries,
  captureEntries,
  holdReleasedEntries,
  isBalanced,
  ledgerBalances,
  payoutEntries,
  payoutReversedEntries,
  refundOwedEntries,
  refundPaidEntries,
  releaseEntries,
  type LedgerEntry,
} from './ledger.rules';
import { fundsHeld, invoiceTransition, type InvoiceEvent, type InvoiceState } from './invoice.rules';
import { refundRoute } from './escrow.rules';
import { successFee } from './success-fee.rules';

const SELLER = '00000000-0000-4000-8000-000000000001';

describe('ledger entries (D22)', () => {
  it('balances every kind of movement to the cent', () => {
    for (const entries of [
      authorizationEntries(120_000),
      captureEntries(120_000, 3_510),
      captureEntries(120_000, 0),
      holdReleasedEntries(120_000),
      refundOwedEntries(120_000),
      refundPaidEntries(120_000),
      releaseEntries(SELLER, 120_000, 6_000),
      releaseEntries(SELLER, 120_000, 0),
      payoutEntries(SELLER, 114_000),
      payoutReversedEntries(SELLER, 114_000),
    ]) {
      expect(isBalanced(entries)).toBe(true);
    }
  });

  it('refuses amounts that are not whole cents, fees above the amount, and unbalanced or half-named lines', () => {
    expect(() => authorizationEntries(0)).toThrow(RangeError);
    expect(() => authorizationEntries(10.5)).toThrow(RangeError);
    expect(() => captureEntries(100, 101)).toThrow(RangeError);
    expect(() => releaseEntries(SELLER, 100, -1)).toThrow(RangeError);
    expect(isBalanced([{ account: 'card_holds', party_id: null, amount_cents: 100 }, { account: 'escrow_held', party_id: null, amount_cents: -99 }])).toBe(false);
    expect(isBalanced([{ account: 'platform_balance', party_id: null, amount_cents: 100 }, { account: 'seller_payable', party_id: null, amount_cents: -100 }])).toBe(false);
    expect(isBalanced([{ account: 'card_holds', party_id: null, amount_cents: 0 }, { account: 'escrow_held', party_id: null, amount_cents: 0 }])).toBe(false);
    expect(isBalanced([{ account: 'card_holds', party_id: null, amount_cents: 1 }])).toBe(false);
  });

  it('drops a zero fee line rather than storing a line that moves nothing', () => {
    expect(releaseEntries(SELLER, 100, 0).map((e) => e.account)).toEqual(['escrow_held', 'seller_payable']);
    expect(captureEntries(100, 0).map((e) => e.account)).toEqual(['card_holds', 'platform_balance']);
  });
});

/**
 * A model of one invoice's money as the billing service moves it, built only from the domain's rules: each step is
 * taken when the invoice's state machine allows it, and writes the ledger entries of its kind once (keyed as the
 * database keys them, so a provider's retry writes nothing new).
 */
/** A provider's card fee as Stripe's US pricing has it; never above the amount. */
const providerFee = (amount: number) => Math.min(amount, Math.round(amount * 0.029) + 30);

type Step = 'pay' | 'capture' | 'refund' | 'dispute' | 'release' | 'payout' | 'lapse' | 'reverse';
interface Sale {
  amount: number;
  fee: number;
  status: InvoiceState;
  intent: 'none' | 'requires_capture' | 'succeeded' | 'canceled';
  refunded: boolean;
  captured: boolean;
  payout: null | { status: 'pending' | 'paid' | 'reversed'; created_at: Date };
}

function simulate(sales: Sale[], steps: { sale: number; step: Step; retry: boolean }[]) {
  const written = new Map<string, LedgerEntry[]>();
  const write = (key: string, entries: LedgerEntry[]) => {
    if (!written.has(key)) written.set(key, entries);
  };
  const move = (sale: Sale, event: InvoiceEvent) => {
    const next = invoiceTransition(sale.status, event);
    if (next !== null) sale.status = next;
    return next !== null;
  };
  for (const { sale: index, step, retry } of steps) {
    const sale = sales[index];
    const runs = retry ? 2 : 1;
    for (let run = 0; run < runs; run++) {
      const key = (kind: string) => `${kind}:${index}`;
      switch (step) {
        case 'pay':
          if (sale.intent === 'none' && move(sale, 'payment_authorized')) {
            sale.intent = 'requires_capture';
            write(key('authorization'), authorizationEntries(sale.amount));
          } else if (sale.intent !== 'none' && written.has(key('authorization'))) {
            write(key('authorization'), authorizationEntries(sale.amount));
          }
          break;
        case 'capture':
          if (sale.intent === 'requires_capture' && invoiceTransition(sale.status, 'funds_captured') !== null) {
            sale.intent = 'succeeded';
            sale.captured = true;
            write(key('capture'), captureEntries(sale.amount, providerFee(sale.amount)));
          }
          break;
        case 'refund': {
          const route = refundRoute(sale.intent, sale.refunded, sale.payout);
          if (route.route === 'cancel_hold' && move(sale, 'payment_canceled')) {
            sale.intent = 'canceled';
            write(key('hold_released'), holdReleasedEntries(sale.amount));
          } else if (route.route === 'refund_charge' && move(sale, 'refunded')) {
            sale.intent = 'canceled';
            sale.refunded = true;
            write(key('refund_owed'), refundOwedEntries(sale.amount));
            write(key('refund_paid'), refundPaidEntries(sale.amount));
          }
          break;
        }
        case 'dispute':
          move(sale, 'dispute_opened');
          break;
        case 'lapse':
          if (sale.intent === 'requires_capture' && fundsHeld(sale.status) && move(sale, 'hold_expired')) {
            sale.intent = 'canceled';
            write(key('hold_released'), holdReleasedEntries(sale.amount));
          }
          break;
        case 'release':
          if (sale.intent === 'succeeded' && !sale.payout && move(sale, 'funds_released')) {
            sale.payout = { status: 'pending', created_at: new Date(0) };
            write(key('release'), releaseEntries(SELLER, sale.amount, sale.fee));
          }
          break;
        case 'payout':
          if (sale.payout?.status === 'pending' && move(sale, 'payout_sent')) {
            sale.payout.status = 'paid';
            write(key('payout'), payoutEntries(SELLER, sale.amount - sale.fee));
          }
          break;
        case 'reverse':
          if (sale.payout?.status === 'paid') {
            sale.payout.status = 'reversed';
            write(key('payout_reversed'), payoutReversedEntries(SELLER, sale.amount - sale.fee));
          }
          break;
      }
    }
  }
  return [...written.values()];
}

describe('ledger over random lives of sales (D22)', () => {
  const saleArb = fc.record({ dollars: fc.integer({ min: 1, max: 2_000_000 }), percent: fc.integer({ min: 0, max: 5000 }).map((bp) => bp / 100) });
  const stepArb = (n: number) =>
    fc.record({
      sale: fc.integer({ min: 0, max: n - 1 }),
      step: fc.constantFrom<Step>('pay', 'capture', 'refund', 'dispute', 'release', 'payout', 'lapse', 'reverse'),
      retry: fc.boolean(),
    });

  it('balances every transaction, holds in escrow exactly the held invoices, and creates or loses no cent', () => {
    fc.assert(
      fc.property(
        fc.array(saleArb, { minLength: 1, maxLength: 6 }).chain((specs) => fc.tuple(fc.constant(specs), fc.array(stepArb(specs.length), { maxLength: 60 }))),
        ([specs, steps]) => {
          const sales: Sale[] = specs.map(({ dollars, percent }) => ({
            amount: dollars * 100,
            fee: successFee(dollars, percent).fee_cents,
            status: 'pending',
            intent: 'none',
            refunded: false,
            captured: false,
            payout: null,
          }));
          const transactions = simulate(sales, steps);
          for (const entries of transactions) expect(isBalanced(entries)).toBe(true);
          const b = ledgerBalances(transactions);
          const sum = (list: Sale[], of: (s: Sale) => number) => list.reduce((total, s) => total + of(s), 0);
          const held = sales.filter((s) => fundsHeld(s.status) && !s.payout);
          // Liabilities are credits: 0 - balance reads them as positive amounts (and never as -0).
          expect(0 - b.escrow_held).toBe(sum(held, (s) => s.amount));
          expect(b.card_holds).toBe(sum(held.filter((s) => s.intent === 'requires_capture'), (s) => s.amount));
          expect(b.refunds).toBe(0);
          expect(0 - b.seller_payable).toBe(sum(sales.filter((s) => s.payout && s.payout.status !== 'paid'), (s) => s.amount - s.fee));
          expect(0 - b.platform_fees).toBe(sum(sales.filter((s) => s.payout), (s) => s.fee));
          // Every cent captured is still in the platform's balance, or went to a seller, back to a buyer, or to the provider.
          const captured = sum(sales.filter((s) => s.captured), (s) => s.amount);
          const paidOut = sum(sales.filter((s) => s.payout?.status === 'paid'), (s) => s.amount - s.fee);
          const refunded = sum(sales.filter((s) => s.refunded), (s) => s.amount);
          expect(b.platform_balance + b.provider_fees + paidOut + refunded).toBe(captured);
          expect(b.provider_fees).toBe(sum(sales.filter((s) => s.captured), (s) => providerFee(s.amount)));
          expect(Object.values(b).reduce((total, v) => total + v, 0)).toBe(0);
        },
      ),
      { numRuns: 400 },
    );
  });
});
