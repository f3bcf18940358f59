import type { Actor } from '@market/contracts';
import { refusalOf } from '@market/server-kit/testing';
import { authorizeInvoice, viewerOf } from './invoice.policy';

const invoice = { buyer_id: 'buyer', seller_id: 'seller' };
const actor = (user_id: string, overrides: Partial<Actor> = {}): Actor => ({ user_id, role: 'regular', ...overrides });

describe('invoice policy (ADR 0069)', () => {
  it.each([
    ['its buyer', actor('buyer'), 'buyer'],
    ['its seller', actor('seller'), 'seller'],
    ['a real admin', actor('admin', { role: 'admin' }), 'admin'],
    ['the buyer acted as by an admin', actor('buyer', { impersonator_id: 'admin' }), 'buyer'],
    ['an impersonated admin', actor('admin', { role: 'admin', impersonator_id: 'other' }), null],
    ['a stranger', actor('stranger'), null],
  ] as const)('%s sees it as %s', (_who, who, expected) => {
    expect(viewerOf(who, invoice)).toBe(expected);
  });

  it('refuses a stranger as if the invoice did not exist, and the wrong party with what only the right one may do', () => {
    const buyerOnly = { party: 'buyer' as const, refusal: 'Only the buyer can pay this invoice' };
    expect(refusalOf(() => authorizeInvoice(actor('stranger'), invoice, buyerOnly))).toEqual({ status: 404, detail: 'Invoice not found' });
    expect(refusalOf(() => authorizeInvoice(actor('buyer'), null, buyerOnly))).toEqual({ status: 404, detail: 'Invoice not found' });
    expect(refusalOf(() => authorizeInvoice(actor('seller'), invoice, buyerOnly))).toEqual({ status: 403, detail: 'Only the buyer can pay this invoice' });
    expect(refusalOf(() => authorizeInvoice(actor('admin', { role: 'admin' }), invoice, buyerOnly))).toEqual({ status: 403, detail: 'Only the buyer can pay this invoice' });
    expect(authorizeInvoice(actor('buyer'), invoice, buyerOnly)).toEqual({ invoice, viewer: 'buyer' });
    expect(authorizeInvoice(actor('admin', { role: 'admin' }), invoice)).toEqual({ invoice, viewer: 'admin' });
  });
});
