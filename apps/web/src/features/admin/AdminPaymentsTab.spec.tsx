import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { AdminPaymentIntentDto } from '@market/contracts';
import { createStore, type AppStore } from '../../testing/test-store';
import { paymentsApi } from '../../api/payments.api';
import { api } from '../../lib/api';
import { AdminPaymentsTab } from './AdminPaymentsTab';

// Jest has no CSS transform: the style sheets the components import are empty here.
jest.mock('../../components/feedback/feedback.css', () => ({}));
jest.mock('./admin-billing.css', () => ({}));
jest.mock('../../components/form/form-fields.css', () => ({}));
jest.mock('../../components/payments/payments.css', () => ({}));

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

const held: AdminPaymentIntentDto = {
  id: '6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab',
  provider: 'sandbox',
  stripe_payment_intent_id: 'pi_sbx_0123456789abcdef01234567',
  invoice_id: 'inv-1',
  invoice_number: 'INV-2026-000042',
  amount: 4500,
  currency: 'usd',
  status: 'requires_capture',
  status_label: 'Awaiting Capture',
  capture_method: 'manual',
  metadata: { website_title: 'Heron watching blog', invoice_number: 'INV-2026-000042' },
  created_at: '2026-11-20T10:00:00Z',
  authorized_at: '2026-11-20T10:01:00Z',
  capture_deadline: '2026-11-27T10:01:00Z',
  expires_soon: true,
  captured_at: null,
  succeeded_at: null,
  refunded_at: null,
  canceled_at: null,
  last_error: null,
  invoice_status: 'payment_authorized',
  transfer: { started_at: null, received_at: null, verified_at: null },
  dispute: null,
  dispute_urgent: false,
  held_in_escrow_since: null,
  payout: null,
};
const released: AdminPaymentIntentDto = {
  ...held,
  id: '7f1c2d3e-4a5b-4c6d-8e7f-0123456789ab',
  invoice_number: 'INV-2026-000043',
  metadata: { website_title: 'Tea shop', invoice_number: 'INV-2026-000043' },
  amount: 1200,
  status: 'succeeded',
  capture_deadline: null,
  expires_soon: false,
  captured_at: '2026-11-21T10:00:00Z',
};
const open: AdminPaymentIntentDto = { ...held, id: '8f1c2d3e-4a5b-4c6d-8e7f-0123456789ab', status: 'requires_payment_method', capture_deadline: null, expires_soon: false, last_error: 'Your card was declined.' };

const stores: AppStore[] = [];
afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));

async function renderWith(rows: AdminPaymentIntentDto[] | null): Promise<string> {
  const store = createStore();
  stores.push(store);
  if (rows) await store.dispatch(paymentsApi.util.upsertQueryData('adminPaymentIntents', undefined, { payment_intents: rows }));
  const element: ReactElement = (
    <Provider store={store}>
      <MemoryRouter initialEntries={['/dashboard?tab=payments']}>
        <AdminPaymentsTab />
      </MemoryRouter>
    </Provider>
  );
  return renderToStaticMarkup(element);
}

describe('AdminPaymentsTab', () => {
  it('shows the empty state with its hint', async () => {
    const page = text(await renderWith([]));
    expect(page).toContain('Refresh Payments');
    expect(page).toContain('No payment intents found.');
    expect(page).toContain('Payment intents will appear here when users make payments.');
  });

  it('lists intents with their labels, deadlines, the under-48-hours flag, actions by status and the totals', async () => {
    const html = await renderWith([held, released, open]);
    const page = text(html);
    expect(page).not.toContain('No payment intents found.');
    expect(html.match(/data-testid="admin-payment-row"/g)).toHaveLength(3);
    expect(page).toContain('6f1c2d3e-4a5b-4c6d-8…');
    expect(page).toContain('Awaiting Capture');
    expect(page).toContain('Captured / Funds Released');
    expect(page).toContain('Incomplete / Awaiting Payment');
    expect(page).toContain('Your card was declined.');
    expect(html.match(/data-testid="hold-expires-soon"/g)).toHaveLength(1);
    // Release Funds only for the hold; Refund for the hold and the captured payment; nothing for the open one.
    expect(html.match(/>Release Funds</g)).toHaveLength(1);
    expect(html.match(/>Refund</g)).toHaveLength(2);
    expect(page).toContain('No actions');
    expect(page).toContain('Total: 3 Awaiting capture: 1 ($4,500) Completed: 1 ($1,200)');
  });

  it('shows the transfer checklist beside Release Funds, and a disputed hold with Resolve dispute instead, urgent ones first (ADR 0039)', async () => {
    const started: AdminPaymentIntentDto = { ...held, transfer: { started_at: '2026-11-21T09:00:00Z', received_at: null, verified_at: null } };
    const disputed: AdminPaymentIntentDto = {
      ...held,
      id: '9f1c2d3e-4a5b-4c6d-8e7f-0123456789ab',
      invoice_id: 'inv-9',
      invoice_status: 'disputed',
      dispute_urgent: true,
      dispute: {
        id: 'd-1',
        status: 'open',
        reason: 'access_incomplete',
        reason_label: 'Some accounts or files were not handed over',
        message: 'No hosting login was handed over.',
        opened_at: '2026-11-22T09:00:00Z',
        outcome: null,
        resolution_note: null,
        closed_at: null,
      },
    };
    const html = await renderWith([started, disputed]);
    const page = text(html);
    expect(page).toContain('Not confirmed by buyer');
    expect(page).toContain('Disputed Some accounts or files were not handed over');
    expect(html.match(/data-testid="dispute-urgent"/g)).toHaveLength(1);
    // The urgent dispute is listed first, and only the undisputed hold offers the plain buttons.
    expect(html.indexOf('9f1c2d3e')).toBeLessThan(html.indexOf('6f1c2d3e'));
    expect(html.match(/>Resolve dispute</g)).toHaveLength(1);
    expect(html.match(/>Release Funds</g)).toHaveLength(1);
    expect(html.match(/>Refund</g)).toHaveLength(1);
  });

  it('says since when captured funds are held in escrow, and still offers Release Funds for them (D22)', async () => {
    const inEscrow: AdminPaymentIntentDto = { ...released, held_in_escrow_since: '2026-11-21T10:00:00Z' };
    const html = await renderWith([inEscrow]);
    expect(text(html)).toContain('Held in escrow since');
    expect(html.match(/data-testid="payment-escrow"/g)).toHaveLength(1);
    expect(html.match(/>Release Funds</g)).toHaveLength(1);
    expect(html).toContain(`href="/dashboard?tab=ledger&amp;invoice=${inEscrow.invoice_id}"`);
  });

  it("shows a released payment's payout with its net and fee, and why it waits; no more buttons (D22)", async () => {
    const waiting: AdminPaymentIntentDto = {
      ...released,
      held_in_escrow_since: '2026-11-21T10:00:00Z',
      payout: { status: 'waiting_for_account', net: 1140, fee: 60, seller_account_status: 'details_needed', paid_at: null },
    };
    const html = await renderWith([waiting]);
    const page = text(html);
    expect(page).toContain('Net $1,140 · fee $60');
    expect(html).toContain('Waiting for the seller&#x27;s payout account (details needed)');
    expect(html).toMatch(/data-testid="payment-payout-status"[^>]*>Waiting</);
    expect(html.match(/>Release Funds</g)).toBeNull();
    expect(html.match(/>Refund</g)).toBeNull();
  });
});
