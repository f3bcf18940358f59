import type { Page } from 'playwright-core';
import { baseUrl, snap } from './support/browser';
import { freshPagePerTest, logInAsAdmin } from './support/journey';

const PHONE = { width: 390, height: 844 };

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
  ])('%s fits a phone', async (name, path, text) => {
    const page = currentPage();
    await page.goto(`${baseUrl()}${path}`);
    await page.getByText(text).first().waitFor();
    await expectNoSidewaysScroll(page);
    await snap(page, `phone-${name}`);
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
