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
    // This save's own answer: the success text of the save before is still on screen.
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/admin/settings') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    expect((await saved).status()).toBe(200);
    // auth-service keeps the settings until the change's event reaches it: the guest presses again until it has.
    for (let attempt = 1; ; attempt++) {
      const answered = guestPage.waitForResponse((r) => r.url().endsWith('/api/auth/register') && r.request().method() === 'POST');
      await guestPage.getByRole('button', { name: 'Create Account' }).click();
      const status = (await answered).status();
      if (status < 400) break;
      expect([status, attempt < 30]).toEqual([403, true]);
    }
    await guestPage.getByRole('button', { name: 'Continue to Login' }).waitFor();
    await guest.close();
  });

  it('a success fee set in Settings is what the help center tells sellers, then free again', async () => {
    await page.goto(`${baseUrl()}/dashboard?tab=settings`);
    const fee = page.getByLabel('Success fee (%)');
    await fee.waitFor();
    // Waits for this save's own answer: the success text of an earlier save may still be on screen.
    const save = async () => {
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/admin/settings') && r.request().method() === 'POST');
      await page.getByRole('button', { name: 'Save Settings' }).click();
      expect((await answered).status()).toBe(200);
    };
    await fee.fill('2.55');
    await save();
    await page.getByText('✅ Settings saved successfully!').waitFor();
    try {
      // A new visitor (no cached answer) reads the fee in force.
      const visitor = await browser.newContext();
      const help = await visitor.newPage();
      await help.goto(`${baseUrl()}/help-center?section=faq`);
      await help.getByText("a success fee of 2.55% of the sale price is deducted from the seller's payout", { exact: false }).waitFor();
      expect(await help.getByText('currently free').count()).toBe(0);
      await snap(help, 'help-center-fee');
      await visitor.close();
    } finally {
      await fee.fill('0');
      await save();
    }
    const later = await browser.newContext();
    const about = await later.newPage();
    await about.goto(`${baseUrl()}/about`);
    await about.getByText('Listing and selling is currently free.').waitFor();
    await later.close();
  });
});
