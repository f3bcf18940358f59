import { LEDGER_KINDS } from '@market/domain';
import { differenceKindLabel, ledgerKindLabel, ledgerMoney, parseInvoiceId, reconcileSummary, shortId, unreconciledText } from './admin-ledger';

describe('admin ledger texts (D22)', () => {
  it('labels every ledger kind the domain knows, and shows an unknown one as sent', () => {
    for (const kind of LEDGER_KINDS) expect(ledgerKindLabel(kind)).not.toBe(kind);
    expect(ledgerKindLabel('release')).toBe('Released to the seller');
    expect(ledgerKindLabel('fx_adjustment')).toBe('fx adjustment');
  });

  it('labels the differences', () => {
    expect(differenceKindLabel('missing_in_ledger')).toBe('Missing in the ledger');
    expect(differenceKindLabel('missing_at_provider')).toBe('Missing at the provider');
    expect(differenceKindLabel('amount_differs')).toBe('Amounts differ');
  });

  it('writes amounts signed, with cents only when there are some', () => {
    expect(ledgerMoney(4500)).toBe('$4,500');
    expect(ledgerMoney(-4275)).toBe('-$4,275');
    expect(ledgerMoney(-225.5)).toBe('-$225.50');
    expect(ledgerMoney(null)).toBe('\u2014');
  });

  it('says nothing is unreconciled, or how much is', () => {
    expect(unreconciledText(0)).toBe('Nothing unreconciled');
    expect(unreconciledText(3)).toBe('3 unreconciled');
  });

  it('sums up a reconciliation run', () => {
    expect(reconcileSummary({ days: 2, provider_transactions: 5, ledger_transactions: 5, differences: 0, unreconciled: 0 })).toBe(
      'Reconciled 2 days: 5 provider transactions against 5 ledger transactions. No new differences. Nothing unreconciled.',
    );
    expect(reconcileSummary({ days: 1, provider_transactions: 1, ledger_transactions: 0, differences: 1, unreconciled: 1 })).toBe(
      'Reconciled 1 day: 1 provider transaction against 0 ledger transactions. 1 difference found. 1 unreconciled.',
    );
  });

  it('shortens a party id and keeps a dash for none', () => {
    expect(shortId('6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab')).toBe('6f1c2d3e\u2026');
    expect(shortId(null)).toBe('\u2014');
  });
});

describe('parseInvoiceId', () => {
  it('takes a UUID, trimmed and lower-cased', () => {
    expect(parseInvoiceId('  6F1C2D3E-4A5B-4C6D-8E7F-0123456789AB ')).toEqual({ ok: true, id: '6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab' });
  });

  it('asks for one when empty, and explains what one looks like otherwise', () => {
    expect(parseInvoiceId('   ')).toEqual({ ok: false, error: 'Enter an invoice id.' });
    const wrong = parseInvoiceId('INV-2026-000042');
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.error).toContain('Payments tab');
  });
});
