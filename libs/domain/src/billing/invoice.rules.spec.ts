import {
  canMarkPaid,
  canPay,
  dueDate,
  endsHeldSale,
  INVOICE_EVENTS,
  INVOICE_STATES,
  invoiceNumber,
  invoiceTransition,
  payBy,
  saleTypeOf,
  statusesAffectedBy,
  type InvoiceEvent,
  type InvoiceState,
} from './invoice.rules';

const _ = null;
/** The whole table: one row per status, one column per event (in INVOICE_EVENTS order); null is refused. */
const COLUMNS = INVOICE_EVENTS;
const TABLE: Record<InvoiceState, (InvoiceState | null)[]> = {
  //                  started             authorized            failed            canceled            captured              refunded     hold_expired        marked_paid due_date_passed dispute_opened window_lapsed sale_cancelled released              payout_sent
  pending:            ['awaiting_payment', 'payment_authorized', _,                _,                  _,                    _,           _,                  'paid',     'overdue',      _,             'cancelled',  'cancelled',   _,                    _],
  overdue:            ['awaiting_payment', 'payment_authorized', _,                _,                  _,                    _,           _,                  _,          _,              _,             'cancelled',  'cancelled',   _,                    _],
  paid:               [_,                  _,                    _,                _,                  _,                    _,           _,                  _,          _,              _,             _,            _,             _,                    _],
  payment_failed:     ['awaiting_payment', 'payment_authorized', _,                _,                  _,                    _,           _,                  _,          'overdue',      _,             'cancelled',  'cancelled',   _,                    _],
  awaiting_payment:   ['awaiting_payment', 'payment_authorized', 'payment_failed', 'payment_canceled', _,                    _,           _,                  _,          _,              _,             'cancelled',  'cancelled',   _,                    _],
  payment_canceled:   ['awaiting_payment', 'payment_authorized', _,                _,                  _,                    _,           _,                  _,          'overdue',      _,             'cancelled',  'cancelled',   _,                    _],
  payment_authorized: [_,                  _,                    _,                'cancelled',        'payment_authorized', 'cancelled', 'payment_canceled', _,          _,              'disputed',    _,            _,             'payment_authorized', 'paid'],
  disputed:           [_,                  _,                    _,                'cancelled',        'disputed',           'cancelled', 'cancelled',        _,          _,              _,             _,            _,             'payment_authorized', _],
  cancelled:          [_,                  _,                    _,                _,                  _,                    _,           _,                  _,          _,              _,             _,            _,             _,                    _],
};

describe('invoiceTransition (SPEC §4, D10, D11)', () => {
  it('cancels only an invoice no money is held or taken for, and a cancelled invoice never moves again (ADR 0043)', () => {
    for (const event of ['payment_window_lapsed', 'sale_cancelled'] as const) {
      expect(statusesAffectedBy(event)).toEqual(INVOICE_STATES.filter((status) => canPay(status)));
      for (const status of ['paid', 'payment_authorized', 'disputed', 'cancelled'] as const) expect(invoiceTransition(status, event)).toBeNull();
    }
    for (const event of INVOICE_EVENTS) expect(invoiceTransition('cancelled', event)).toBeNull();
    expect(canPay('cancelled')).toBe(false);
    expect(canMarkPaid('cancelled')).toBe(false);
  });

  it('has a row for every status and a column for every event', () => {
    expect(Object.keys(TABLE).sort()).toEqual([...INVOICE_STATES].sort());
    for (const row of Object.values(TABLE)) expect(row).toHaveLength(COLUMNS.length);
  });

  const cases = INVOICE_STATES.flatMap((status) => COLUMNS.map((event, i) => [status, event, TABLE[status][i]] as [InvoiceState, InvoiceEvent, InvoiceState | null]));
  it.each(cases)('%s + %s -> %s', (status, event, next) => {
    expect(invoiceTransition(status, event)).toBe(next);
  });

  it('never leaves paid, and only the payout or the seller makes an invoice paid (D22)', () => {
    for (const event of INVOICE_EVENTS) {
      expect(invoiceTransition('paid', event)).toBeNull();
      for (const status of INVOICE_STATES) {
        if (invoiceTransition(status, event) === 'paid') expect(['payout_sent', 'marked_paid']).toContain(event);
      }
    }
  });

  it('keeps captured funds held, and ends the sale when held funds go back to the buyer (D22, ADR 0063)', () => {
    for (const status of ['payment_authorized', 'disputed'] as const) {
      expect(invoiceTransition(status, 'funds_captured')).toBe(status);
      for (const event of ['refunded', 'payment_canceled'] as const) expect(endsHeldSale(status, event)).toBe(true);
    }
    expect(endsHeldSale('disputed', 'hold_expired')).toBe(true);
    // An undisputed hold the platform could not capture in time lapses back to payable (D11).
    expect(endsHeldSale('payment_authorized', 'hold_expired')).toBe(false);
    expect(endsHeldSale('awaiting_payment', 'payment_canceled')).toBe(false);
    for (const status of INVOICE_STATES) {
      for (const event of INVOICE_EVENTS) {
        if (endsHeldSale(status, event)) expect(['refunded', 'payment_canceled', 'hold_expired']).toContain(event);
      }
    }
  });

  it('starts every accepted payment only from a status the buyer may pay from', () => {
    for (const status of INVOICE_STATES) expect(invoiceTransition(status, 'payment_started') !== null).toBe(canPay(status));
  });

  it('opens a dispute only while funds are held and undisputed, and a disputed invoice leaves only as the money moves', () => {
    expect(statusesAffectedBy('dispute_opened')).toEqual(['payment_authorized']);
    for (const event of INVOICE_EVENTS) {
      const next = invoiceTransition('disputed', event);
      if (next !== null && next !== 'disputed') expect(['funds_released', 'refunded', 'payment_canceled', 'hold_expired']).toContain(event);
    }
    expect(invoiceTransition('disputed', 'due_date_passed')).toBeNull();
    expect(canPay('disputed')).toBe(false);
  });

  it('names the statuses the overdue sweep moves', () => {
    expect(statusesAffectedBy('due_date_passed')).toEqual(['pending', 'payment_failed', 'payment_canceled']);
    expect(statusesAffectedBy('marked_paid')).toEqual(['pending']);
  });
});

describe('canPay and canMarkPaid (SPEC §4)', () => {
  it.each(INVOICE_STATES.map((s) => [s]))('%s', (status) => {
    expect(canPay(status)).toBe(['pending', 'overdue', 'payment_failed', 'awaiting_payment', 'payment_canceled'].includes(status));
    expect(canMarkPaid(status)).toBe(status === 'pending');
  });
});

describe('invoiceNumber and dueDate (D10)', () => {
  it('numbers INV-YYYY-NNNNNN, zero-padded, wider past a million', () => {
    expect(invoiceNumber(2026, 1)).toBe('INV-2026-000001');
    expect(invoiceNumber(2026, 123_456)).toBe('INV-2026-123456');
    expect(invoiceNumber(2027, 999_999)).toBe('INV-2027-999999');
    expect(invoiceNumber(2027, 1_000_000)).toBe('INV-2027-1000000');
  });

  it('refuses what cannot be a number', () => {
    expect(() => invoiceNumber(2026, 0)).toThrow(RangeError);
    expect(() => invoiceNumber(2026, 1.5)).toThrow(RangeError);
    expect(() => invoiceNumber(26, 1)).toThrow(RangeError);
  });

  it('is due exactly seven days after creation', () => {
    expect(dueDate(new Date('2026-03-01T10:15:00.000Z')).toISOString()).toBe('2026-03-08T10:15:00.000Z');
    expect(dueDate(new Date('2026-12-28T23:59:59.999Z')).toISOString()).toBe('2027-01-04T23:59:59.999Z');
  });
});

describe('saleTypeOf', () => {
  it.each([
    ['buy_now', 'buy_now', 'buy_now'],
    ['auction_win', 'bid', 'auction_win'],
    ['bid_accepted', 'bid', 'auction_win'],
    ['accepted_after_close', 'bid', 'auction_win'],
    ['bid_accepted', 'offer', 'accepted_offer'],
    ['accepted_after_close', 'offer', 'accepted_offer'],
  ] as const)('sale %s of a %s is %s', (sale, kind, expected) => {
    expect(saleTypeOf(sale, kind)).toBe(expected);
  });
});

describe('payBy (ADR 0043)', () => {
  it('ends the payment window whole hours after the invoice was made', () => {
    expect(payBy(new Date('2026-11-25T10:00:00Z'), 48).toISOString()).toBe('2026-11-27T10:00:00.000Z');
    expect(payBy(new Date('2026-11-25T10:00:00Z'), 1).toISOString()).toBe('2026-11-25T11:00:00.000Z');
  });
  it('refuses a window that is not a positive whole number of hours', () => {
    for (const hours of [0, -1, 1.5, Number.NaN]) expect(() => payBy(new Date(), hours)).toThrow(RangeError);
  });
});
