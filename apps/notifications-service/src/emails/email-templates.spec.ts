import { TEST_MODE_NOTICE } from '@market/contracts';
import { emailChangedEmail, holdExpiredEmail, listingApprovedEmail, maskEmail } from './email-templates';
import { redactedEmail } from './token-redaction';
import { holdExpiredSellerNotice, invoiceIssuedNotice, paymentNotice } from './marketplace-email-templates';
import { noticeEmail, type Notice } from './notice';

describe('listingApprovedEmail', () => {
  const email = listingApprovedEmail({
    username: 'sam',
    listing_id: '8d2f1c1e-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
    title: 'Tools & <Tips> blog',
    expires_at: '2026-11-29T10:00:00.000Z',
    publicUrl: 'https://market.example',
  });

  it('links to the listing page on the public URL and says when it ends', () => {
    expect(email.subject).toBe('Your listing "Tools & <Tips> blog" is live');
    expect(email.text).toContain('https://market.example/listing/8d2f1c1e-5a6b-4c7d-8e9f-0a1b2c3d4e5f');
    expect(email.text).toContain('Sun, 29 Nov 2026 10:00:00 UTC');
  });

  it('escapes the seller-written title in HTML', () => {
    expect(email.html).toContain('Tools &amp; &lt;Tips&gt; blog');
    expect(email.html).not.toContain('<Tips>');
  });
});

describe('emailChangedEmail (ADR 0034)', () => {
  const email = emailChangedEmail({ username: 'sam', newEmail: 'thief<x>@elsewhere.example', token: 'tok_en-123', publicUrl: 'https://market.example' });

  it('tells the old address where the account went, masked, with the undo link on the public URL', () => {
    expect(email.subject).toBe('The email address of your Site Market account was changed');
    expect(email.text).toContain('changed to t***@elsewhere.example');
    expect(email.text).not.toContain('thief');
    expect(email.text).toContain('https://market.example/undo-email-change?token=tok_en-123');
    expect(email.text).toContain('expires in 7 days');
    expect(email.html).toContain('href="https://market.example/undo-email-change?token=tok_en-123"');
  });

  it('keeps no usable link in a redacted copy', () => {
    const kept = redactedEmail(email);
    expect(kept.text).toContain('/undo-email-change?token=[redacted]');
    expect(`${kept.text}${kept.html}`).not.toContain('tok_en-123');
  });

  it('masks any address, even one without a local part', () => {
    expect(maskEmail('ann@example.com')).toBe('a***@example.com');
    expect(maskEmail('@example.com')).toBe('***');
    expect(maskEmail('not-an-address')).toBe('***');
  });
});

describe('holdExpiredEmail (D11)', () => {
  const email = holdExpiredEmail({
    username: 'ann',
    invoice_id: '8d2f1c1e-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
    invoice_number: 'INV-2026-000042',
    website_title: 'Birds & <Bees> blog',
    publicUrl: 'https://market.example',
  });

  it('tells the buyer the hold was released and links to paying the invoice again', () => {
    expect(email.subject).toBe('Your payment hold for INV-2026-000042 expired');
    expect(email.text).toContain('https://market.example/dashboard?tab=invoices&pay=8d2f1c1e-5a6b-4c7d-8e9f-0a1b2c3d4e5f');
    expect(email.text).toContain('you were not charged');
    expect(email.html).toContain('Birds &amp; &lt;Bees&gt; blog');
  });
});

describe('invoice and payment emails while the sandbox runs (ADR 0033)', () => {
  const facts = {
    payment_intent_id: 'pi-1',
    invoice_id: '8d2f1c1e-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
    invoice_number: 'INV-2026-000042',
    buyer_id: 'b',
    seller_id: 's',
    website_title: 'Heron blog',
    amount: 4500,
    at: '2026-11-25T10:00:00.000Z',
  };
  const issued = { ...facts, total_amount: 4500, due_date: '2026-12-02T10:00:00.000Z', issued_at: '2026-11-25T10:00:00.000Z' };
  const render = (notice: Notice) => noticeEmail({ username: 'ann', notice, publicUrl: 'https://market.example' });

  it('say in the subject and the first line that no real money moved', () => {
    const emails = [
      render(invoiceIssuedNotice({ ...issued, test_mode: true })),
      ...(['payment.authorized', 'payment.captured', 'payment.refunded'] as const).flatMap((event) =>
        (['buyer', 'seller'] as const).map((role) => render(paymentNotice(event, role, { ...facts, test_mode: true }))),
      ),
      render(holdExpiredSellerNotice({ ...facts, expired_at: facts.at, test_mode: true })),
      holdExpiredEmail({ username: 'ann', invoice_id: facts.invoice_id, invoice_number: facts.invoice_number, website_title: 'Heron blog', publicUrl: 'https://market.example', test_mode: true }),
    ];
    expect(emails).toHaveLength(9);
    for (const email of emails) {
      expect(email.subject).toMatch(/^\[TEST MODE\] /);
      expect(email.text.split('\n')[2]).toBe(TEST_MODE_NOTICE);
      expect(email.html).toContain(TEST_MODE_NOTICE);
    }
    expect(TEST_MODE_NOTICE).toContain('No real money moved.');
  });

  it('say nothing of the kind for real payments, or for events written before the flag existed', () => {
    for (const testMode of [false, undefined]) {
      const emails = [render(invoiceIssuedNotice({ ...issued, test_mode: testMode })), render(paymentNotice('payment.captured', 'seller', { ...facts, test_mode: testMode }))];
      for (const email of emails) expect(`${email.subject}\n${email.text}`).not.toContain('TEST MODE');
    }
  });
});
