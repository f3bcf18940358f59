import type Stripe from 'stripe';
import { providerSetupIntentOf } from './stripe-provider';

describe('providerSetupIntentOf (ADR 0041)', () => {
  const setup = (fields: Partial<Stripe.SetupIntent>) => ({ id: 'seti_1', status: 'requires_payment_method', client_secret: 'seti_1_secret_x', metadata: {}, payment_method: null, last_setup_error: null, ...fields }) as Stripe.SetupIntent;

  it("keeps a succeeded SetupIntent's card as its last four digits and its member from the metadata", () => {
    const method = { id: 'pm_1', card: { last4: '4242' } } as Stripe.PaymentMethod;
    expect(providerSetupIntentOf(setup({ status: 'succeeded', payment_method: method, metadata: { user_id: 'u-1' } }))).toEqual({
      id: 'seti_1',
      status: 'succeeded',
      client_secret: 'seti_1_secret_x',
      card_last4: '4242',
      user_id: 'u-1',
      last_error: null,
    });
  });

  it('reads an unexpanded method as no card yet, and the last setup error as the reason', () => {
    const failed = providerSetupIntentOf(setup({ payment_method: 'pm_2', last_setup_error: { message: 'Your card was declined.' } as Stripe.SetupIntent.LastSetupError }));
    expect(failed).toMatchObject({ status: 'requires_payment_method', card_last4: null, user_id: null, last_error: 'Your card was declined.' });
  });
});
