import { stripeConfirmResult, usesStripe } from './stripe-js';
import { confirmOutcome } from './payments';

describe('Stripe.js in the payment dialog (D12)', () => {
  it('is used only when the server chose Stripe and sent a publishable key', () => {
    expect(usesStripe({ provider: 'stripe', publishable_key: 'pk_test_123' })).toBe(true);
    expect(usesStripe({ provider: 'stripe', publishable_key: null })).toBe(false);
    expect(usesStripe({ provider: 'stripe', publishable_key: 'sk_test_secret' })).toBe(false);
    expect(usesStripe({ provider: 'sandbox', publishable_key: null })).toBe(false);
  });

  it('reads a Stripe.js confirmation as the dialog reads the sandbox: held is success, a decline shows Stripe\u2019s message', () => {
    const current = { id: 'pi_1', status: 'requires_payment_method', invoice_id: 'inv', amount: 4500 };
    expect(confirmOutcome(stripeConfirmResult({ paymentIntent: { id: 'pi_1', status: 'requires_capture' } }, current))).toEqual({ kind: 'success', status: 'requires_capture' });
    const declined = stripeConfirmResult({ error: { code: 'card_declined', message: 'Your card was declined.' } }, current);
    expect(declined.error).toEqual({ code: 'card_declined', message: 'Your card was declined.' });
    expect(confirmOutcome(declined)).toEqual({ kind: 'error', text: 'Your card was declined.' });
    expect(confirmOutcome(stripeConfirmResult({ paymentIntent: { id: 'pi_1', status: 'requires_action' } }, current))).toEqual({ kind: 'verify' });
  });
});
