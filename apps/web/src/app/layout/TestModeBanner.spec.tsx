import type { SiteInfo } from '@market/contracts';
import { createStore, type AppStore } from '../store';
import { siteApi } from '../../api/site.api';
import { api } from '../../lib/api';
import { renderStatic, visibleText } from '../../testing/static-render';
import { TEST_MODE_BANNER_TEXT, TestModeBanner } from './TestModeBanner';
import { Layout } from './Layout';

// No browser storage in Node: nobody is impersonating anyone here.
jest.mock('../../lib/impersonation', () => ({ readImpersonation: () => null, endImpersonation: () => '/' }));

const stores: AppStore[] = [];
// Resetting the API state also stops the timers that would drop unused cache entries later.
afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));

async function storeWith(site: SiteInfo): Promise<AppStore> {
  const store = createStore();
  stores.push(store);
  await store.dispatch(siteApi.util.upsertQueryData('site', undefined, site));
  return store;
}

describe('the TEST MODE banner (ADR 0033)', () => {
  it('says on every page that no real money moves while the sandbox runs the payments', async () => {
    const html = renderStatic(<TestModeBanner />, await storeWith({ payments: { provider: 'sandbox', test_mode: true } }));
    expect(html).toMatch(/^<div class="test-mode-banner" role="note" aria-label="Test mode" data-testid="test-mode-banner">/);
    expect(visibleText(html)).toBe(`TEST MODE ${TEST_MODE_BANNER_TEXT}`);
    expect(TEST_MODE_BANNER_TEXT).toContain('no real money moves');
  });

  it('is part of the frame of every page, before the header', async () => {
    const store = await storeWith({ payments: { provider: 'sandbox', test_mode: true } });
    for (const url of ['/', '/dashboard', '/browse']) {
      const html = renderStatic(<Layout />, store, url);
      expect(html.indexOf('data-testid="test-mode-banner"')).toBeGreaterThan(-1);
      expect(html.indexOf('data-testid="test-mode-banner"')).toBeLessThan(html.indexOf('<header'));
    }
  });

  it('shows nothing with Stripe, or while the answer is unknown', async () => {
    expect(renderStatic(<TestModeBanner />, await storeWith({ payments: { provider: 'stripe', test_mode: false } }))).toBe('');
    expect(renderStatic(<TestModeBanner />)).toBe('');
  });
});
