import { holdExpiredEmail, listingApprovedEmail } from './email-templates';

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
