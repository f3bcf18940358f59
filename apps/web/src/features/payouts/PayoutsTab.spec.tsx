import { Route, Routes } from 'react-router-dom';
import type { PayoutAccountDto, SandboxOnboardingLink, SellerPayoutsDto, UserDto } from '@market/contracts';
import { createStore, type AppStore } from '../../testing/test-store';
import { api } from '../../lib/api';
import { startSession, userUpdated } from '../../session/session.slice';
import { renderStatic, visibleText } from '../../testing/static-render';
import { payoutsApi } from './payouts.api';
import { PayoutsTab } from './PayoutsTab';
import { SANDBOX_ONBOARDING_NOTICE, SandboxOnboardingPage } from './SandboxOnboardingPage';
import { NO_SALES_TEXT } from './payouts';

// Jest has no CSS transform: the style sheets the components import are empty here.
jest.mock('./payouts.css', () => ({}));
jest.mock('../../components/feedback/feedback.css', () => ({}));
jest.mock('../../components/payments/payments.css', () => ({}));

const stores: AppStore[] = [];
// Resetting the API state also stops the timers that would drop unused cache entries later (and hold Jest open a minute).
afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));

const EMPTY: SellerPayoutsDto = { balance: { in_escrow: 0, paid_out: 0, fees: 0 }, payouts: [] };

/** The tab's markup once the account and the payouts answered (null: still loading). */
async function renderTab(account: PayoutAccountDto | null, payouts: SellerPayoutsDto | null, url = '/dashboard?tab=payouts'): Promise<string> {
  const store = createStore();
  stores.push(store);
  if (account) await store.dispatch(payoutsApi.util.upsertQueryData('payoutAccount', undefined, account));
  if (payouts) await store.dispatch(payoutsApi.util.upsertQueryData('payouts', undefined, payouts));
  return renderStatic(<PayoutsTab />, store, url);
}

const count = (html: string, testId: string) => html.match(new RegExp(`data-testid="${testId}"`, 'g'))?.length ?? 0;

describe('PayoutsTab (D22)', () => {
  it('shows loading views until both answers are in', async () => {
    const text = visibleText(await renderTab(null, null));
    expect(text).toContain('Loading your payout account...');
    expect(text).toContain('Loading your payouts...');
  });

  it('asks a seller with no account to set up payouts, with one button and the empty state', async () => {
    const html = await renderTab({ status: 'not_started', requirements_due: [] }, EMPTY);
    const text = visibleText(html);
    expect(text).toContain('Not set up');
    expect(text).toContain('Set up payouts so the money from your sales can reach your bank account.');
    expect(count(html, 'payout-account-action')).toBe(1);
    expect(text).toContain('Set up payouts');
    expect(text).toContain(NO_SALES_TEXT);
    expect(html).toMatch(/data-testid="payout-balance-in-escrow">\$0</);
    expect(count(html, 'payout-row')).toBe(0);
  });

  it('lists what the provider still asks for in words, and offers Continue setup', async () => {
    const html = await renderTab({ status: 'details_needed', requirements_due: ['individual.dob.day', 'individual.dob.month', 'external_account'] }, EMPTY);
    const text = visibleText(html);
    expect(text).toContain('The provider still asks for: Date of birth Bank account for payouts');
    expect(html).toMatch(/data-testid="payout-account-action"[^>]*>Continue setup</);
  });

  it.each([
    ['pending_verification', 'Your details are being verified.'],
    ['enabled', 'Payouts are on: released funds are sent to your account.'],
  ] as const)('offers no button while %s', async (status, sentence) => {
    const html = await renderTab({ status, requirements_due: [] }, EMPTY);
    expect(visibleText(html)).toContain(sentence);
    expect(count(html, 'payout-account-action')).toBe(0);
    expect(html).toContain(`data-status="${status}"`);
  });

  it('offers Update details to a restricted account', async () => {
    const html = await renderTab({ status: 'restricted', requirements_due: [] }, EMPTY);
    expect(html).toMatch(/data-testid="payout-account-action"[^>]*>Update details</);
  });

  it('says an expired onboarding link expired and offers the button again; thanks on return', async () => {
    const refresh = visibleText(await renderTab({ status: 'details_needed', requirements_due: [] }, EMPTY, '/dashboard?tab=payouts&onboarding=refresh'));
    expect(refresh).toContain('That setup link expired before you finished');
    expect(refresh).toContain('Continue setup');
    const back = visibleText(await renderTab({ status: 'pending_verification', requirements_due: [] }, EMPTY, '/dashboard?tab=payouts&onboarding=return'));
    expect(back).toContain('Thank you: the payout provider received your details.');
  });

  it('shows the balance and each sale with its figures and status badge', async () => {
    const payouts: SellerPayoutsDto = {
      balance: { in_escrow: 4512.5, paid_out: 1140, fees: 297.5 },
      payouts: [
        { invoice_id: 'a', invoice_number: 'INV-2026-000042', website_title: 'Heron blog', gross: 4750, fee: 237.5, net: 4512.5, status: 'waiting_for_account', created_at: '2026-11-22T10:00:00Z', paid_at: null },
        { invoice_id: 'b', invoice_number: 'INV-2026-000043', website_title: 'Tea shop', gross: 1200, fee: 60, net: 1140, status: 'paid', created_at: '2026-11-20T10:00:00Z', paid_at: '2026-11-21T10:00:00Z' },
        { invoice_id: 'c', invoice_number: 'INV-2026-000044', website_title: 'Kite forum', gross: 800, fee: 0, net: 800, status: 'in_escrow', created_at: '2026-11-23T10:00:00Z', paid_at: null },
      ],
    };
    const html = await renderTab({ status: 'enabled', requirements_due: [] }, payouts);
    expect(count(html, 'payout-row')).toBe(3);
    expect(html).toMatch(/data-testid="payout-balance-in-escrow">\$4,512\.50</);
    expect(html).toMatch(/data-testid="payout-balance-paid-out">\$1,140</);
    expect(html).toMatch(/data-testid="payout-balance-fees">\$297\.50</);
    expect(html).toMatch(/data-testid="payout-row-gross">\$4,750</);
    expect(html).toMatch(/data-testid="payout-row-fee">\$237\.50</);
    expect(html).toMatch(/data-testid="payout-row-net">\$4,512\.50</);
    const text = visibleText(html);
    expect(text).toContain('Waiting for your payout account');
    expect(text).toContain('Paid');
    expect(text).toContain('Held in escrow');
    expect(text).not.toContain(NO_SALES_TEXT);
  });
});

describe('SandboxOnboardingPage (D12, D22)', () => {
  const seller = { id: 'u-sam', username: 'sam_seller', role: 'regular' } as UserDto;
  const LINK_ID = 'acctlink_sbx_0123456789abcdef01234567';

  async function renderPage(link: SandboxOnboardingLink | null, viewer: UserDto | null = seller): Promise<string> {
    const store = createStore();
    stores.push(store);
    // A guest: the session start found no token.
    store.dispatch(viewer ? userUpdated(viewer) : startSession.fulfilled(null, 'guest'));
    if (link) await store.dispatch(payoutsApi.util.upsertQueryData('sandboxOnboardingLink', LINK_ID, link));
    return renderStatic(
      <Routes>
        <Route path="/sandbox-onboarding/:linkId" element={<SandboxOnboardingPage />} />
      </Routes>,
      store,
      `/sandbox-onboarding/${LINK_ID}`,
    );
  }

  it('says it is TEST MODE and offers one primary button and two small outcomes', async () => {
    const html = await renderPage({ id: LINK_ID, status: 'details_needed', expired: false });
    const text = visibleText(html);
    expect(text).toContain('TEST MODE');
    expect(text).toContain(SANDBOX_ONBOARDING_NOTICE);
    expect(html).toMatch(/data-testid="sandbox-onboarding-complete"[^>]*>Complete test onboarding</);
    expect(text).toContain('Leave verification pending');
    expect(text).toContain('Simulate a restricted account');
    expect(html.match(/class="btn btn-primary"/g)).toHaveLength(1);
  });

  it('says an expired link expired and leads back to Payouts', async () => {
    const html = await renderPage({ id: LINK_ID, status: 'details_needed', expired: true });
    expect(visibleText(html)).toContain('This setup link has expired');
    expect(html).toContain('href="/dashboard?tab=payouts"');
    expect(html).not.toContain('sandbox-onboarding-complete');
  });

  it('asks a guest to log in', async () => {
    const text = visibleText(await renderPage(null, null));
    expect(text).toContain('log in as the seller');
  });
});
