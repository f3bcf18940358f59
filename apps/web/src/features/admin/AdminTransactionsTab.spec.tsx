import { renderToStaticMarkup } from 'react-dom/server';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { AdminTransactionDto } from '@market/contracts';
import { createStore, type AppStore } from '../../testing/test-store';
import { adminBillingApi } from '../../api/admin-billing.api';
import { api } from '../../lib/api';
import { AdminTransactionsTab } from './AdminTransactionsTab';

jest.mock('../../components/feedback/feedback.css', () => ({}));
jest.mock('./admin-billing.css', () => ({}));
jest.mock('../../components/form/form-fields.css', () => ({}));

const unpaid: AdminTransactionDto = {
  id: '6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab',
  transaction_id: 'INV-2026-000042',
  listing_id: '7f1c2d3e-4a5b-4c6d-8e7f-0123456789ab',
  listing_title: 'Heron watching blog',
  buyer: { id: 'b', username: 'bob' },
  seller: { id: 's', username: 'sam' },
  amount: 3000,
  status: 'pending',
  invoice_status: 'pending',
  payment_status: null,
  date: '2026-11-25T10:00:00Z',
};
const held: AdminTransactionDto = { ...unpaid, id: '8f1c2d3e-4a5b-4c6d-8e7f-0123456789ab', transaction_id: 'INV-2026-000043', invoice_status: 'payment_authorized' };
const lapsed: AdminTransactionDto = { ...unpaid, id: '9f1c2d3e-4a5b-4c6d-8e7f-0123456789ab', transaction_id: 'INV-2026-000044', status: 'failed', invoice_status: 'cancelled' };

const stores: AppStore[] = [];
afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));

describe('AdminTransactionsTab: Cancel sale (ADR 0043)', () => {
  it('offers Cancel sale only on a sale no money is held or taken for', async () => {
    const store = createStore();
    stores.push(store);
    await store.dispatch(adminBillingApi.util.upsertQueryData('adminTransactions', 'all', { transactions: [unpaid, held, lapsed] }));
    const html = renderToStaticMarkup(
      <Provider store={store}>
        <MemoryRouter>
          <AdminTransactionsTab />
        </MemoryRouter>
      </Provider>,
    );
    expect(html).toContain('aria-label="Cancel sale INV-2026-000042"');
    expect(html).not.toContain('Cancel sale INV-2026-000043');
    expect(html).not.toContain('Cancel sale INV-2026-000044');
  });
});
