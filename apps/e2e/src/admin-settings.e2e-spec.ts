import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { baseUrl, launchBrowser, snap } from './support/browser';
import { logInAsAdmin, registerThroughForm } from './support/journey';

describe('admin settings in the browser', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('closes and reopens registration from the Settings tab', async () => {
    await logInAsAdmin(page);
    await page.waitForURL(`${baseUrl()}/dashboard`);
    await page.getByRole('link', { name: 'Settings' }).click();
    const allow = page.getByLabel(/Allow registration/);
    await allow.waitFor();
    expect(await allow.isChecked()).toBe(true);
    await snap(page, 'admin-settings');

    await page.getByLabel('SMTP port').fill('0');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText(/❌ Error saving settings: SMTP port must be 1 to 65535/).waitFor();
    await page.getByLabel('SMTP port').fill('587');
    await allow.uncheck();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('✅ Settings saved successfully!').waitFor();

    const guest = await browser.newContext();
    const guestPage = await guest.newPage();
    const tag = randomBytes(3).toString('hex');
    await registerThroughForm(guestPage, { username: `closed_${tag}`, email: `closed_${tag}@example.com`, password: `closed-pass-${tag}` });
    await guestPage.getByText('Registration is currently closed').waitFor();
    await snap(guestPage, 'register-closed');

    await allow.check();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('✅ Settings saved successfully!').waitFor();
    await guestPage.getByRole('button', { name: 'Create Account' }).click();
    await guestPage.getByRole('button', { name: 'Continue to Login' }).waitFor();
    await guest.close();
  });
});
