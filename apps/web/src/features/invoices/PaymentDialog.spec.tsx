import { renderToStaticMarkup } from 'react-dom/server';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { createStore } from '../../testing/test-store';
import { api } from '../../lib/api';
import { PaymentDialog } from './PaymentDialog';

jest.mock('../../components/payments/payments.css', () => ({}));

const store = createStore();
afterAll(() => store.dispatch(api.util.resetApiState()));

const render = (element: React.ReactElement, url: string) =>
  renderToStaticMarkup(
    <Provider store={store}>
      <MemoryRouter initialEntries={[url]}>{element}</MemoryRouter>
    </Provider>,
  );
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();

describe('PaymentDialog before its payment exists', () => {
  it('shows no payment id and no card form, only the spinner', () => {
    const html = render(<PaymentDialog invoice={{ id: 'inv-1', invoice_number: 'INV-1', website_title: 'Site', total_amount: 900, status: 'overdue' }} onClose={() => undefined} />, '/dashboard');
    expect(text(html)).not.toContain('Payment ID');
    expect(text(html)).toContain('Initializing secure payment...');
    expect(html).not.toContain('Securely');
  });
});
