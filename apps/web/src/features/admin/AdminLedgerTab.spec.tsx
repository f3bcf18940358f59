import type { InvoiceLedgerDto, LedgerOverviewDto } from '@market/contracts';
import { createStore, type AppStore } from '../../testing/test-store';
import { api } from '../../lib/api';
import { renderStatic, visibleText } from '../../testing/static-render';
import { AdminLedgerTab } from './AdminLedgerTab';
import { ledgerApi } from './ledger.api';

// Jest has no CSS transform: the style sheets the components import are empty here.
jest.mock('../../components/feedback/feedback.css', () => ({}));
jest.mock('./admin-billing.css', () => ({}));
jest.mock('./admin-ledger.css', () => ({}));

const stores: AppStore[] = [];
afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));

const INVOICE_ID = '6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab';
const SELLER_ID = '7a1c2d3e-4a5b-4c6d-8e7f-0123456789ab';

const balanced: LedgerOverviewDto = {
  balanced: true,
  accounts: [
    { account: 'platform_balance', label: 'Platform balance at the provider', balance: 4369.5 },
    { account: 'escrow_held', label: 'Held in escrow', balance: -4500 },
    { account: 'provider_fees', label: 'Provider fees paid', balance: 130.5 },
  ],
  unreconciled: 0,
  last_reconciled_at: null,
  transactions: 2,
  differences: [],
};

async function render(overview: LedgerOverviewDto | null, url = '/dashboard?tab=ledger', trail?: InvoiceLedgerDto): Promise<string> {
  const store = createStore();
  stores.push(store);
  if (overview) await store.dispatch(ledgerApi.util.upsertQueryData('ledgerOverview', undefined, overview));
  if (trail) await store.dispatch(ledgerApi.util.upsertQueryData('invoiceLedger', trail.invoice_id, trail));
  return renderStatic(<AdminLedgerTab />, store, url);
}

describe('AdminLedgerTab (D22)', () => {
  it('shows a loading view first', async () => {
    expect(visibleText(await render(null))).toContain('Loading the ledger...');
  });

  it('says the ledger balances, nothing is unreconciled, and it was never reconciled; lists the accounts signed', async () => {
    const html = await render(balanced);
    const text = visibleText(html);
    expect(html).toMatch(/data-testid="ledger-balanced"[^>]*>Balanced</);
    expect(html).toMatch(/data-testid="ledger-unreconciled"[^>]*>Nothing unreconciled</);
    expect(text).toContain('Not reconciled yet');
    expect(text).toContain('Held in escrow -$4,500');
    expect(text).toContain('Platform balance at the provider $4,369.50');
    expect(text).toContain('Debits read positive and credits negative');
    expect(text).toContain('No open differences');
    expect(text).toContain('Reconcile now');
  });

  it('flags a ledger that does not balance and lists the open differences', async () => {
    const html = await render({
      ...balanced,
      balanced: false,
      unreconciled: 1,
      last_reconciled_at: '2026-11-22T03:00:00Z',
      differences: [
        { id: 'd1', provider_ref: 'txn_sbx_0123456789abcdef01234567', kind: 'amount_differs', ledger_amount: 4500, provider_amount: 4369.5, day: '2026-11-21', found_at: '2026-11-22T03:00:00Z' },
      ],
    });
    const text = visibleText(html);
    expect(html).toMatch(/data-testid="ledger-balanced"[^>]*>Does not balance</);
    expect(html).toContain('ledger-bad');
    expect(html).toMatch(/data-testid="ledger-unreconciled"[^>]*>1 unreconciled</);
    expect(text).toContain('Last reconciled');
    expect(text).toContain('txn_sbx_0123456789abcdef01234567 Amounts differ $4,500 $4,369.50 2026-11-21');
  });

  it("opens the invoice trail ?invoice= names, one small table per transaction", async () => {
    const trail: InvoiceLedgerDto = {
      invoice_id: INVOICE_ID,
      invoice_number: 'INV-2026-000042',
      transactions: [
        {
          id: '11111111-4a5b-4c6d-8e7f-0123456789ab',
          kind: 'authorization',
          occurred_at: '2026-11-20T10:00:00Z',
          provider_ref: null,
          entries: [
            { account: 'card_holds', party_id: null, amount: 4500 },
            { account: 'escrow_held', party_id: null, amount: -4500 },
          ],
        },
        {
          id: '22222222-4a5b-4c6d-8e7f-0123456789ab',
          kind: 'release',
          occurred_at: '2026-11-25T10:00:00Z',
          provider_ref: null,
          entries: [
            { account: 'escrow_held', party_id: null, amount: 4500 },
            { account: 'seller_payable', party_id: SELLER_ID, amount: -4275 },
            { account: 'platform_fees', party_id: null, amount: -225 },
          ],
        },
      ],
    };
    const html = await render(balanced, `/dashboard?tab=ledger&invoice=${INVOICE_ID}`, trail);
    const text = visibleText(html);
    expect(html).toContain(`value="${INVOICE_ID}"`);
    expect(text).toContain('Invoice INV-2026-000042');
    expect(html.match(/data-testid="ledger-trail-transaction"/g)).toHaveLength(2);
    expect(text).toContain('Card authorised');
    expect(text).toContain('Released to the seller');
    expect(text).toContain('Payable to sellers 7a1c2d3e… -$4,275');
    expect(text).toContain('Success fees earned — -$225');
  });

  it('explains an address whose invoice id is not one', async () => {
    const text = visibleText(await render(balanced, '/dashboard?tab=ledger&invoice=INV-2026-000042'));
    expect(text).toContain('An invoice id looks like');
  });
});
