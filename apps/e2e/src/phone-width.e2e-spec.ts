import type { Page } from 'playwright-core';
import { baseUrl, snap } from './support/browser';
import { freshPagePerTest, logInAsAdmin } from './support/journey';

// The narrowest phone the issue names (iPhone SE / mini class).
const PHONE = { width: 375, height: 812 };

/** The page never scrolls sideways: wide content (tables) scrolls inside its own box. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

describe('pages at phone width', () => {
  const currentPage = freshPagePerTest(PHONE);

  it.each([
    ['home', '/', 'Buy and sell websites'],
    ['login', '/login', 'Welcome back'],
    ['register', '/register', 'Create your account'],
    ['verify-email-missing', '/verify-email', 'No verification token provided'],
    ['reset-password-form', '/reset-password?token=some-token-value', 'Choose a new password'],
    ['dashboard-guest', '/dashboard', 'Please log in to view your dashboard.'],
    ['browse', '/browse', 'listings'],
    ['sell-guest', '/sell', 'Basic Info'],
    ['listing-missing', '/listing/00000000-0000-4000-8000-000000000000', 'Listing not found'],
    ['help-center', '/help-center?section=faq', 'Frequently asked questions'],
    ['about', '/about', 'About Site Market'],
    ['contact', '/contact', 'Response times'],
    ['privacy', '/privacy-policy', 'Last updated: March 2025'],
    ['terms', '/terms-of-service', 'Last updated: March 2025'],
    ['cookies', '/cookie-policy', 'Last updated: March 2025'],
    ['not-found', '/no-such-page', 'Page not found'],
  ])('%s fits a phone', async (name, path, text) => {
    const page = currentPage();
    await page.goto(`${baseUrl()}${path}`);
    await page.getByText(text).first().waitFor();
    await expectNoSidewaysScroll(page);
    await snap(page, `phone-${name}`);
  });

  it('the header menu opens and closes at phone width', async () => {
    const page = currentPage();
    await page.goto(`${baseUrl()}/`);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.click();
    await page.getByRole('button', { name: 'Close menu' }).waitFor();
    await snap(page, 'phone-menu-open');
    await page.locator('#main-nav').getByRole('link', { name: 'Help' }).click();
    await page.getByRole('heading', { name: 'Help Center' }).waitFor();
    expect(await page.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded')).toBe('false');
    await expectNoSidewaysScroll(page);
  });

  it('the admin dashboard tabs fit a phone', async () => {
    const page = currentPage();
    await logInAsAdmin(page);
    await page.waitForURL(`${baseUrl()}/dashboard`);
    for (const tab of ['overview', 'users', 'listings', 'settings', 'profile']) {
      await page.goto(`${baseUrl()}/dashboard?tab=${tab}`);
      await page.getByRole('link', { name: 'Users' }).waitFor();
      await page.waitForLoadState('networkidle');
      await expectNoSidewaysScroll(page);
      await snap(page, `phone-admin-${tab}`);
    }
  });
});
