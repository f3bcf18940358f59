import { renderToStaticMarkup } from 'react-dom/server';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { createStore } from '../../testing/test-store';
import { api } from '../../lib/api';
import { MISSING_PAYMENT_INFO, PaymentSuccessPage } from './PaymentResultPages';
import { PaymentCancelPage } from './PaymentCancelPage';

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

describe('payment result pages', () => {
  it('says payment information is missing without both parameters, with the way back and to support', () => {
    for (const url of ['/payment-success', '/payment-success?invoice_id=inv-1', '/payment-success?session_id=cs_sbx_1']) {
      const html = render(<PaymentSuccessPage />, url);
      expect(text(html)).toContain('Payment Verification Issue');
      expect(text(html)).toContain(MISSING_PAYMENT_INFO);
      expect(html).toMatch(/href="\/dashboard"[^>]*>Go to Dashboard</);
      expect(html).toMatch(/href="\/contact"[^>]*>Contact Support</);
      expect(text(html)).not.toContain('Payment Successful!');
    }
  });

  it('verifies first when both parameters are there', () => {
    expect(text(render(<PaymentSuccessPage />, '/payment-success?session_id=cs_sbx_1&invoice_id=inv-1'))).toContain('Verifying your payment...');
  });

  it('offers Try Payment Again only with an invoice, beside Back to Dashboard and Contact Support', () => {
    const withInvoice = render(<PaymentCancelPage />, '/payment-cancel?invoice_id=inv-1');
    expect(text(withInvoice)).toContain('Payment Cancelled');
    expect(text(withInvoice)).toContain('No charges have been made to your account.');
    expect(withInvoice).toMatch(/href="\/dashboard\?tab=invoices&amp;pay=inv-1"[^>]*>Try Payment Again</);
    expect(withInvoice).toMatch(/href="\/dashboard"[^>]*>Back to Dashboard</);
    expect(withInvoice).toMatch(/href="\/contact"[^>]*>Contact Support</);
    const without = render(<PaymentCancelPage />, '/payment-cancel');
    expect(without).not.toContain('Try Payment Again');
    expect(without).toContain('Back to Dashboard');
  });
});
