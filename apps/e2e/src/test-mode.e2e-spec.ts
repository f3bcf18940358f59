import type { Page } from 'playwright-core';
import { eventually } from '@market/server-kit/testing';
import { baseUrl, snap } from './support/browser';
import { freshPagePerTest, logInAs } from './support/journey';
import { registerAccount } from './support/api';

/** The banner is on screen, says TEST MODE and no real money, and hides none of the page's end (ADR 0033). */
async function expectBanner(page: Page): Promise<void> {
  const banner = page.getByTestId('test-mode-banner');
  await banner.waitFor();
  expect(await banner.innerText()).toMatch(/^TEST MODE\s+Payments on this site go through a sandbox: no real money moves\.$/);
  expect(await banner.isVisible()).toBe(true);
  // A page still loading its data grows after the scroll and pushes its end down again: scroll and measure until it
  // has settled.
  await eventually(async () => {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const lastLine = await page.getByText(/All prices in USD/).boundingBox();
    const strip = await banner.boundingBox();
    expect(lastLine && strip && lastLine.y + lastLine.height <= strip.y).toBe(true);
  }, 5000);
  await page.evaluate(() => window.scrollTo(0, 0));
}

// The e2e system runs the sandbox provider, so every page says TEST MODE.
describe.each([
  ['desktop', { width: 1280, height: 860 }],
  ['phone', { width: 375, height: 812 }],
])('the TEST MODE banner while the sandbox runs the payments (%s)', (_label, viewport) => {
  const currentPage = freshPagePerTest(viewport);

  it('shows on the home page and on the dashboard', async () => {
    const page = currentPage();
    await page.goto(`${baseUrl()}/`);
    await page.getByText('Buy and sell websites').first().waitFor();
    await expectBanner(page);
    // What the screen shows: the banner is pinned to its bottom edge (a full-page capture would draw it mid-page).
    await snap(page, `test-mode-home-${viewport.width}`, { fullPage: false });

    const account = await registerAccount('testmode');
    await logInAs(page, account.username, account.password);
    await page.waitForURL(`${baseUrl()}/`);
    await page.goto(`${baseUrl()}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await page.getByText('Please log in to view your dashboard.').waitFor({ state: 'detached' });
    await expectBanner(page);
    await snap(page, `test-mode-dashboard-${viewport.width}`, { fullPage: false });
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await snap(page, `test-mode-dashboard-end-${viewport.width}`, { fullPage: false });
  });
});
