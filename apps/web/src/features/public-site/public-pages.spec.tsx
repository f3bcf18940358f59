import type { ReactElement } from 'react';
import { HelpCenterPage } from './HelpCenterPage';
import { ContactPage } from './ContactPage';
import { AboutPage } from './AboutPage';
import { CookiePolicyPage, PrivacyPolicyPage, TermsOfServicePage } from './LegalPage';
import { renderStatic, visibleText } from '../../testing/static-render';
import { createStore, type AppStore } from '../../testing/test-store';
import { feesApi } from '../../api/fees.api';
import { api } from '../../lib/api';

jest.mock('./public-site.css', () => ({}));
jest.mock('../../components/form/form-fields.css', () => ({}));

const render = (element: ReactElement, url = '/') => renderStatic(element, undefined, url);
const stores: AppStore[] = [];
// Resetting the API state also stops the timers that would drop unused cache entries later (and hold Jest open a minute).
afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));
const text = visibleText;

describe('HelpCenterPage (SPEC §2)', () => {
  it.each([
    ['/help-center', 'How to buy a website'],
    ['/help-center?section=how-to-sell', 'How to sell your website'],
    ['/help-center?section=faq', 'Frequently asked questions'],
    ['/help-center?section=nonsense', 'How to buy a website'],
  ])('%s shows "%s" with its tab selected', (url, heading) => {
    const html = render(<HelpCenterPage />, url);
    expect(text(html)).toContain(heading);
    expect(html.match(/aria-selected="true"/g)).toHaveLength(1);
  });

  it('answers how sellers get paid with the inspection period in force (D22)', async () => {
    const store = createStore();
    stores.push(store);
    await store.dispatch(feesApi.util.upsertQueryData('fees', undefined, { success_fee_percent: 5, verified_email_required: true, inspection_days: 5 }));
    const words = text(renderStatic(<HelpCenterPage />, store, '/help-center?section=faq'));
    expect(words).toContain('How do sellers get paid?');
    expect(words).toContain('the 5-day inspection period passes with no dispute');
    expect(text(render(<HelpCenterPage />, '/help-center?section=faq'))).toContain('the 3-day inspection period');
  });
});

describe('ContactPage (SPEC §5, §9)', () => {
  it('has the fields, the nine subjects, urgency defaulting to normal, a 6-row message, response times and hours', () => {
    const html = render(<ContactPage />, '/contact');
    for (const name of ['name', 'email', 'subject', 'urgency', 'message']) expect(html).toContain(`name="${name}"`);
    expect(html.match(/<option value="[^"]+"( selected="")?>/g)).toHaveLength(9 + 3);
    expect(html).toMatch(/<option value="normal" selected="">Normal<\/option>/);
    expect(html).toMatch(/<textarea rows="6"/);
    const words = text(html);
    expect(words).toContain('General inquiries 24 hours Technical support 12 hours Urgent issues 4 hours');
    expect(words).toContain('Mon-Fri 9AM-6PM EST');
  });
});

describe('about and legal pages', () => {
  it('about carries the marketing figures', () => {
    const words = text(render(<AboutPage />));
    expect(words).toContain('47,000+ active buyers');
    expect(words).toContain('$25,000 average sale');
  });

  it('about says what selling costs: free at 0%, the fee once set, only "listing is free" until known (ADR 0026)', async () => {
    const withFee = async (percent: number) => {
      const store = createStore();
      stores.push(store);
      await store.dispatch(feesApi.util.upsertQueryData('fees', undefined, { success_fee_percent: percent, verified_email_required: true, inspection_days: 3 }));
      return text(renderStatic(<AboutPage />, store, '/about'));
    };
    expect(await withFee(0)).toContain('Listing and selling is currently free. Prices are in US dollars');
    expect(await withFee(3.5)).toContain("a success fee of 3.5% of the sale price is deducted from the seller's payout.");
    const unknown = text(render(<AboutPage />));
    expect(unknown).toContain('Listing is free. Prices are in US dollars');
    expect(unknown).not.toContain('currently free');
  });

  it.each([
    [PrivacyPolicyPage, 'Privacy Policy'],
    [TermsOfServicePage, 'Terms of Service'],
    [CookiePolicyPage, 'Cookie Policy'],
  ])('%#: %s, last updated March 2025', (Page, title) => {
    const words = text(render(<Page />));
    expect(words).toMatch(new RegExp(`^${title} Last updated: March 2025`));
  });
});
