import {
  adminActionError,
  adminActionSuccess,
  checkCard,
  confirmOutcome,
  creationFailure,
  dialogBadge,
  dialogBanner,
  existingPayment,
  existingPaymentStep,
  formatCardNumber,
  formatExpiry,
  IN_PROGRESS_TEXT,
  INIT_FAILED_TEXT,
  INVALID_REQUEST_TEXT,
  messageTone,
  paymentTotals,
  PROCESSING_FAILED_TEXT,
  sameOriginPath,
  shortPaymentId,
  successParams,
} from './payments';

const NOW = new Date('2026-11-23T12:00:00Z');

describe('dialogBanner (SPEC §4 banners)', () => {
  it('chooses the title and tone for every payment status, the payment before the invoice', () => {
    const cases: Array<[invoice: string, payment: string | null, existing: boolean, title: string, tone: string]> = [
      ['payment_authorized', 'requires_capture', true, 'Payment Completed', 'success'],
      ['paid', 'succeeded', true, 'Payment Complete', 'success'],
      ['awaiting_payment', 'failed', false, 'Previous Payment Failed', 'error'],
      ['payment_failed', 'requires_payment_method', false, 'Previous Payment Failed', 'error'],
      ['awaiting_payment', 'canceled', false, 'Retry Payment', 'warning'],
      ['payment_canceled', null, false, 'Retry Payment', 'warning'],
      ['awaiting_payment', 'requires_payment_method', false, 'Continue Payment', 'info'],
      ['pending', 'requires_confirmation', true, 'Continue Payment', 'info'],
      ['pending', 'requires_payment_method', false, 'Secure Payment', 'info'],
      ['overdue', null, false, 'Secure Payment', 'info'],
      ['pending', 'processing', false, 'Secure Payment', 'info'],
    ];
    for (const [invoice, payment, existing, title, tone] of cases) {
      expect([invoice, payment, existing, dialogBanner(invoice, payment, existing)]).toEqual([invoice, payment, existing, expect.objectContaining({ title, tone })]);
    }
  });

  it('tells a failed payer to use a different method and a canceled one that retrying is safe', () => {
    expect(dialogBanner('payment_failed', null, false).text).toMatch(/different payment method/);
    expect(dialogBanner('payment_canceled', null, false).text).toMatch(/safe to try again/);
    expect(dialogBanner('payment_authorized', 'requires_capture', true).text).toMatch(/held.*verification is in progress/);
  });
});

describe('dialogBadge (SPEC §4 badge labels)', () => {
  it('labels every payment and invoice status, and shows anything else as sent', () => {
    const cases: Array<[invoice: string, payment: string | null, label: string]> = [
      ['payment_authorized', 'requires_capture', 'Payment Authorized - Funds Held'],
      ['paid', 'succeeded', 'Payment Completed'],
      ['awaiting_payment', 'failed', 'Payment Failed'],
      ['payment_failed', null, 'Payment Failed'],
      ['awaiting_payment', 'canceled', 'Payment Canceled'],
      ['payment_canceled', null, 'Payment Canceled'],
      ['awaiting_payment', null, 'Ready for Payment'],
      ['payment_authorized', null, 'Payment Authorized'],
      ['paid', null, 'Completed'],
      ['pending', null, 'Pending'],
      ['overdue', null, 'overdue'],
      ['awaiting_payment', 'requires_payment_method', 'requires_payment_method'],
      ['overdue', 'requires_confirmation', 'requires_confirmation'],
      // A declined card leaves the intent requires_payment_method: the invoice's failure shows.
      ['payment_failed', 'requires_payment_method', 'Payment Failed'],
      ['pending', 'requires_payment_method', 'Pending'],
    ];
    for (const [invoice, payment, label] of cases) expect([invoice, payment, dialogBadge(invoice, payment).label]).toEqual([invoice, payment, label]);
  });
});

describe('shortPaymentId', () => {
  it('keeps the first 20 characters and adds an ellipsis; shorter ids stay whole', () => {
    expect(shortPaymentId('6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab')).toBe('6f1c2d3e-4a5b-4c6d-8…');
    expect(shortPaymentId('pi_sbx_123')).toBe('pi_sbx_123');
    expect(shortPaymentId('12345678901234567890')).toBe('12345678901234567890');
  });
});

describe('checkCard', () => {
  const good = { number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' };

  it('accepts the test cards with a future expiry and sends digits only', () => {
    expect(checkCard(good, NOW)).toEqual({ ok: true, card: { card_number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' } });
    for (const number of ['4000 0000 0000 0002', '4000000000009995', '4000-0027-6000-3184']) expect(checkCard({ ...good, number }, NOW).ok).toBe(true);
    expect(checkCard({ ...good, expiry: '11/26' }, NOW).ok).toBe(true);
    expect(checkCard({ ...good, expiry: '01/2030', cvc: '1234' }, NOW).ok).toBe(true);
  });

  it('says clearly what is wrong with each field', () => {
    expect(checkCard({ number: '', expiry: '', cvc: '' }, NOW)).toEqual({
      ok: false,
      errors: { number: 'Enter your card number.', expiry: 'Enter the expiry date (MM / YY).', cvc: 'Enter the security code (CVC).' },
    });
    expect(checkCard({ ...good, number: '4242 4242 4242 4241' }, NOW)).toEqual({ ok: false, errors: { number: 'Your card number is invalid.' } });
    expect(checkCard({ ...good, number: '4242 4242' }, NOW)).toEqual({ ok: false, errors: { number: 'Your card number is incomplete.' } });
    expect(checkCard({ ...good, expiry: '10/26' }, NOW)).toEqual({ ok: false, errors: { expiry: 'Your card has expired.' } });
    expect(checkCard({ ...good, expiry: '13/30' }, NOW)).toEqual({ ok: false, errors: { expiry: "Your card's expiry month is invalid." } });
    expect(checkCard({ ...good, expiry: '1' }, NOW)).toEqual({ ok: false, errors: { expiry: "Your card's expiry date is incomplete (MM / YY)." } });
    expect(checkCard({ ...good, cvc: '12' }, NOW)).toEqual({ ok: false, errors: { cvc: "Your card's security code is incomplete." } });
  });

  it('formats the number in groups of four and the expiry as MM / YY while typing', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-42x')).toBe('4242 42');
    expect(formatCardNumber('1'.repeat(25))).toHaveLength(19 + 4);
    expect(formatExpiry('1234')).toBe('12 / 34');
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('12 / 3')).toBe('12 / 3');
  });
});

describe('creation and confirmation texts (SPEC §8)', () => {
  it('continues on 409, shows a 400 detail or its fallback, and sends anything else to support', () => {
    expect(creationFailure(409, { detail: 'whatever' })).toEqual({ kind: 'existing', text: IN_PROGRESS_TEXT });
    expect(creationFailure(400, { detail: 'This invoice cannot be paid; it is paid' })).toEqual({ kind: 'error', text: 'This invoice cannot be paid; it is paid', contactSupport: false });
    expect(creationFailure(400, {})).toEqual({ kind: 'error', text: INVALID_REQUEST_TEXT, contactSupport: false });
    for (const status of [403, 404, 500, 503, 'FETCH_ERROR', undefined]) {
      expect(creationFailure(status, { detail: 'x' })).toEqual({ kind: 'error', text: INIT_FAILED_TEXT, contactSupport: true });
    }
  });

  it('reads the open payment from a 409 body, and what its status means', () => {
    expect(existingPayment({ payment_intent_id: 'p1', client_secret: 's1', status: 'requires_confirmation' })).toEqual({
      payment_intent_id: 'p1',
      client_secret: 's1',
      status: 'requires_confirmation',
      provider: 'sandbox',
      publishable_key: null,
    });
    expect(existingPayment({ payment_intent_id: 'p1', client_secret: 's1', provider: 'stripe', publishable_key: 'pk_test_1' })).toMatchObject({ provider: 'stripe', publishable_key: 'pk_test_1' });
    expect(existingPayment({ detail: 'x' })).toBeNull();
    expect(existingPaymentStep('requires_capture')).toBe('paid');
    expect(existingPaymentStep('succeeded')).toBe('paid');
    expect(existingPaymentStep('canceled')).toBe('none');
    expect(existingPaymentStep('requires_payment_method')).toBe('continue');
    expect(existingPaymentStep('requires_confirmation')).toBe('continue');
  });

  it('treats held or succeeded as success, the 3184 step as verification, and shows the provider’s decline', () => {
    const result = (status: string, error: { message: string } | null = null) => ({ payment_intent: { status }, error });
    expect(confirmOutcome(result('requires_capture'))).toEqual({ kind: 'success', status: 'requires_capture' });
    expect(confirmOutcome(result('succeeded'))).toEqual({ kind: 'success', status: 'succeeded' });
    expect(confirmOutcome(result('requires_confirmation'))).toEqual({ kind: 'verify' });
    expect(confirmOutcome(result('requires_payment_method', { message: 'Your card was declined.' }))).toEqual({ kind: 'error', text: 'Your card was declined.' });
    expect(confirmOutcome(result('processing'))).toEqual({ kind: 'error', text: PROCESSING_FAILED_TEXT });
  });

  it('colours only ✅ messages green', () => {
    expect(messageTone('✅ Payment captured successfully!')).toBe('success');
    expect(messageTone(IN_PROGRESS_TEXT)).toBe('error');
  });
});

describe('admin capture and refund texts (SPEC §8)', () => {
  it('explains each refusal, by status first and then by the detail', () => {
    expect(adminActionError('capture', 400, 'This payment has already been captured: the funds were already released.')).toBe(
      'Failed to capture payment. The payment was already captured: the funds have already been released.',
    );
    expect(adminActionError('capture', 400, 'PaymentIntent has already succeeded')).toBe('Failed to capture payment. The payment has already succeeded: it is already complete.');
    expect(adminActionError('capture', 400, 'This payment cannot be captured because it is not in a capturable state (canceled).')).toBe(
      'Failed to capture payment. The payment cannot be captured because it is not in a capturable state.',
    );
    expect(adminActionError('refund', 400, 'This payment has already been refunded.')).toBe('Failed to refund payment. This payment has already been refunded.');
    expect(adminActionError('refund', 500, 'boom')).toBe('Failed to refund payment. Server error occurred. The payment may already be processed.');
    expect(adminActionError('capture', 403, 'Admins only')).toBe('Failed to capture payment. You do not have permission to perform this action.');
    expect(adminActionError('capture', 404, 'Payment not found')).toBe('Failed to capture payment. Payment intent not found.');
    expect(adminActionError('refund', 'FETCH_ERROR', null)).toBe('Failed to refund payment. Please check the payment status and try again.');
    expect(messageTone(adminActionError('capture', 400, null))).toBe('error');
  });

  it('says success with ✅ so it shows green', () => {
    expect(adminActionSuccess('capture')).toBe('✅ Payment captured successfully!');
    expect(adminActionSuccess('refund')).toBe('✅ Payment refunded successfully!');
    expect(messageTone(adminActionSuccess('refund'))).toBe('success');
  });

  it('totals the intents, those awaiting capture and those completed', () => {
    expect(
      paymentTotals([
        { status: 'requires_capture', amount: 4500 },
        { status: 'requires_capture', amount: 500 },
        { status: 'succeeded', amount: 1200 },
        { status: 'canceled', amount: 900 },
        { status: 'requires_payment_method', amount: 300 },
      ]),
    ).toEqual({ total: 5, awaiting: 2, awaitingAmount: 5000, completed: 1, completedAmount: 1200 });
    expect(paymentTotals([])).toEqual({ total: 0, awaiting: 0, awaitingAmount: 0, completed: 0, completedAmount: 0 });
  });
});

describe('result pages and checkout redirects', () => {
  it('needs both session_id and invoice_id on the success page', () => {
    expect(successParams(new URLSearchParams('session_id=cs_sbx_1&invoice_id=inv-1'))).toEqual({ sessionId: 'cs_sbx_1', invoiceId: 'inv-1' });
    expect(successParams(new URLSearchParams('invoice_id=inv-1'))).toBeNull();
    expect(successParams(new URLSearchParams('session_id=cs_sbx_1&invoice_id='))).toBeNull();
  });

  it('follows a checkout answer within the site only', () => {
    const origin = 'http://localhost:3000';
    expect(sameOriginPath('http://localhost:3000/payment-success?session_id=cs&invoice_id=i', origin)).toBe('/payment-success?session_id=cs&invoice_id=i');
    expect(sameOriginPath('/payment-cancel?invoice_id=i', origin)).toBe('/payment-cancel?invoice_id=i');
    expect(sameOriginPath('https://evil.example/payment-success', origin)).toBeNull();
  });
});
