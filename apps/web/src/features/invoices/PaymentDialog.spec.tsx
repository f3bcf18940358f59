import { api } from '../../lib/api';
import { renderStatic, visibleText } from '../../testing/static-render';
import { createStore } from '../../testing/test-store';
import { PaymentDialog } from './PaymentDialog';

jest.mock('../../components/payments/payments.css', () => ({}));

const store = createStore();
afterAll(() => store.dispatch(api.util.resetApiState()));

describe('PaymentDialog before its payment exists', () => {
  it('shows no payment id and no card form, only the spinner', () => {
    const html = renderStatic(<PaymentDialog invoice={{ id: 'inv-1', invoice_number: 'INV-1', website_title: 'Site', total_amount: 900, status: 'overdue' }} onClose={() => undefined} />, store, '/dashboard');
    expect(visibleText(html)).not.toContain('Payment ID');
    expect(visibleText(html)).toContain('Initializing secure payment...');
    expect(html).not.toContain('Securely');
  });
});
