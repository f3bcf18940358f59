import { axisTicks, chartMax, transactionDetail, bars, dayLabel, formatAxisMoney, formatMoney, formatRate, linePoints, niceMax, revenueSummary, TRANSACTION_FILTER_OPTIONS, yOf } from './admin-billing-figures';

const plot = { width: 240, height: 120, left: 40, right: 0, top: 10, bottom: 10 };

describe('admin billing figures', () => {
  it('shows money with cents only when there are some', () => {
    expect(formatMoney(0)).toBe('$0');
    expect(formatMoney(3999)).toBe('$3,999');
    expect(formatMoney(836.36)).toBe('$836.36');
    expect(formatMoney(1234.5)).toBe('$1,234.50');
    expect(formatMoney(0.1 + 0.2)).toBe('$0.30');
  });

  it('shows rates with exactly one decimal', () => {
    expect(formatRate(27.3)).toBe('27.3%');
    expect(formatRate(50)).toBe('50.0%');
    expect(formatRate(0)).toBe('0.0%');
  });

  it('shortens axis money', () => {
    expect(formatAxisMoney(950)).toBe('$950');
    expect(formatAxisMoney(0.2)).toBe('$0.2');
    expect(formatAxisMoney(0)).toBe('$0');
    expect(formatAxisMoney(1500)).toBe('$1.5k');
    expect(formatAxisMoney(12_000)).toBe('$12k');
    expect(formatAxisMoney(2_500_000)).toBe('$2.5M');
  });

  it('offers the SPEC filter labels', () => {
    expect(TRANSACTION_FILTER_OPTIONS.map((o) => o.label)).toEqual(['All Transactions', 'completed', 'pending', 'failed']);
  });

  it('rounds the chart top up to 1, 2 or 5 × 10ⁿ, and 1 for an empty chart', () => {
    expect(niceMax(0)).toBe(1);
    expect(niceMax(NaN)).toBe(1);
    expect(niceMax(1)).toBe(1);
    expect(niceMax(1.2)).toBe(2);
    expect(niceMax(2500)).toBe(5000);
    expect(niceMax(5000)).toBe(5000);
    expect(niceMax(5001)).toBe(10_000);
    expect(niceMax(0.03)).toBe(0.05);
    expect(chartMax([0, 0])).toBe(100);
    expect(chartMax([])).toBe(100);
    expect(chartMax([0, 2400, 950])).toBe(5000);
    expect(axisTicks(5000)).toEqual([0, 1000, 2000, 3000, 4000, 5000]);
    expect(axisTicks(2000)).toEqual([0, 500, 1000, 1500, 2000]);
    expect(axisTicks(1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(axisTicks(0.05)).toEqual([0, 0.01, 0.02, 0.03, 0.04, 0.05]);
  });

  it('maps values onto the plot: 0 on the baseline, max at the top', () => {
    expect(yOf(0, 100, plot)).toBe(110);
    expect(yOf(100, 100, plot)).toBe(10);
    expect(yOf(50, 100, plot)).toBe(60);
    expect(yOf(-5, 100, plot)).toBe(110);
    expect(linePoints([0, 50, 100], 100, plot)).toEqual([
      { x: 40, y: 110 },
      { x: 140, y: 60 },
      { x: 240, y: 10 },
    ]);
    expect(linePoints([7], 10, plot)).toEqual([{ x: 140, y: 40 }]);
  });

  it('lays bars out evenly with their heights from the baseline', () => {
    const laid = bars([0, 100], 100, plot, 0.5);
    expect(laid).toEqual([
      { x: 65, y: 110, width: 50, height: 0 },
      { x: 165, y: 10, width: 50, height: 100 },
    ]);
  });

  it('summarises the revenue chart in words', () => {
    expect(revenueSummary([{ date: '2026-06-14', revenue: 0 }])).toBe('No paid revenue in the last 30 days.');
    expect(
      revenueSummary([
        { date: '2026-06-14', revenue: 1000 },
        { date: '2026-06-15', revenue: 2500 },
      ]),
    ).toBe('$3,500 paid in the last 30 days; the best day was Jun 15 with $2,500.');
    expect(dayLabel('2026-05-17')).toBe('May 17');
  });

  it('adds the invoice and payment status behind a transaction status only when they say more', () => {
    expect(transactionDetail({ status: 'completed', invoice_status: 'paid', payment_status: null })).toBe('');
    expect(transactionDetail({ status: 'pending', invoice_status: 'pending', payment_status: null })).toBe('');
    expect(transactionDetail({ status: 'pending', invoice_status: 'overdue', payment_status: null })).toBe('Invoice overdue');
    expect(transactionDetail({ status: 'failed', invoice_status: 'payment_failed', payment_status: 'failed' })).toBe('Invoice payment failed · Payment failed');
    expect(transactionDetail({ status: 'pending', invoice_status: 'payment_authorized', payment_status: 'requires_capture' })).toBe(
      'Invoice payment authorized · Payment requires capture',
    );
  });
});
