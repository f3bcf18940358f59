import type { PaymentMethodStatus } from '@market/contracts';
import { createStore, type AppStore } from '../../testing/test-store';
import { api } from '../../lib/api';
import { renderStatic, visibleText } from '../../testing/static-render';
import { paymentMethodApi } from './payment-method.api';
import { PAYMENT_METHOD_WHY, PaymentMethodSection } from './PaymentMethodSection';

const stores: AppStore[] = [];
// Resetting the API state also stops the timers that would drop unused cache entries later (and hold Jest open a minute).
afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));

/** The section's markup once GET /api/user/payment-method answered `status`. */
async function render(status: PaymentMethodStatus): Promise<string> {
  const store = createStore();
  stores.push(store);
  await store.dispatch(paymentMethodApi.util.upsertQueryData('paymentMethod', undefined, status));
  return renderStatic(<PaymentMethodSection />, store);
}

describe('PaymentMethodSection (ADR 0041)', () => {
  it('says why a card is asked for, in the numbers of the rule', () => {
    expect(PAYMENT_METHOD_WHY).toBe(
      'Bids far above the current price (more than 10 times the minimum next bid, and at least $50,000 above it) need a verified card on file. Saving a card charges nothing.',
    );
  });

  it('offers to add a card when none is saved', async () => {
    const text = visibleText(await render({ verified: false, last4: null, saved_at: null }));
    expect(text).toContain('Payment method');
    expect(text).toContain('No card saved');
    expect(text).toContain('Add a card');
    expect(text).not.toContain('TEST MODE');
  });

  it('shows the verified card by its last four digits and offers to replace it', async () => {
    const html = await render({ verified: true, last4: '4242', saved_at: '2026-11-25T23:00:00.000Z' });
    expect(html).toContain('id="payment-method"');
    expect(visibleText(html)).toContain('Verified Card ending in 4242');
    expect(visibleText(html)).toContain('Replace card');
  });
});
