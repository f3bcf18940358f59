import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { baseUrl, launchBrowser, snap } from './support/browser';
import { logInAs } from './support/journey';
import { apiCall, linkInEmail } from './support/api';

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/** A registered account nobody is logged in to yet (so the only sessions are the ones a journey opens). */
async function newAccount() {
  const tag = randomBytes(3).toString('hex');
  const account = { username: `sess_${tag}`, email: `sess_${tag}@example.com`, password: `sessions-pass-${tag}`, age_confirmed: true };
  const registered = await apiCall('POST', '/auth/register', account);
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  return account;
}

const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('token'));

describe('sessions people control, and a safe email change (ADR 0030, ADR 0034)', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  /** A page in a browser of its own (a context: its own storage), on a laptop or a phone. */
  const device = async (kind: 'laptop' | 'phone') => {
    const context = await browser.newContext(
      kind === 'laptop' ? { viewport: { width: 1280, height: 900 } } : { viewport: { width: 375, height: 812 }, userAgent: IPHONE_SAFARI, isMobile: true },
    );
    contexts.push(context);
    return context.newPage();
  };
  const logIn = async (page: Page, account: { username: string; password: string }) => {
    await logInAs(page, account.username, account.password);
    await page.waitForURL(`${baseUrl()}/`);
  };
  const openProfile = async (page: Page) => {
    await page.goto(`${baseUrl()}/dashboard?tab=profile`);
    await page.getByRole('heading', { name: 'Profile', exact: true }).waitFor();
  };
  const sessions = (page: Page) => page.getByRole('region', { name: 'Sessions' });

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('lists both browsers, logs the other one out (sent to login at its next request), then logs out everywhere', async () => {
    const account = await newAccount();
    const [laptop, phone] = [await device('laptop'), await device('phone')];
    await logIn(laptop, account);
    await logIn(phone, account);

    await openProfile(laptop);
    const rows = sessions(laptop).getByTestId('session-row');
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    await rows.first().getByText('This device').waitFor();
    expect(await rows.first().getByRole('button', { name: /^Log out/ }).count()).toBe(0);
    await rows.nth(1).locator('strong', { hasText: 'Safari on iPhone' }).waitFor();
    await snap(laptop, 'profile-sessions');
    await openProfile(phone);
    await sessions(phone).getByTestId('session-row').nth(1).waitFor();
    await sessions(phone).getByTestId('session-row').first().locator('strong', { hasText: 'Safari on iPhone' }).waitFor();
    await sessions(phone).getByTestId('session-row').first().getByText('This device').waitFor();
    await snap(phone, 'profile-sessions-phone');

    await sessions(laptop).getByRole('button', { name: /^Log out Safari on iPhone/ }).click();
    await sessions(laptop).getByText('That session has been logged out.').waitFor();
    await laptop.waitForFunction(() => document.querySelectorAll('[data-testid="session-row"]').length === 1);

    // The phone still shows its page; its next request is refused and it lands on the login prompt.
    await phone.getByRole('link', { name: 'My Bids' }).click();
    await phone.getByText('Please log in to view your dashboard.').waitFor();
    expect(await tokenOf(phone)).toBeNull();

    // Log out everywhere asks first; declining changes nothing, accepting ends this session too.
    const laptopToken = await tokenOf(laptop);
    laptop.once('dialog', (dialog) => void dialog.dismiss());
    await sessions(laptop).getByRole('button', { name: 'Log out everywhere' }).click();
    expect((await apiCall('GET', '/auth/me', undefined, laptopToken!)).status).toBe(200);
    laptop.once('dialog', (dialog) => {
      expect(dialog.message()).toMatch(/^Log out everywhere\?/);
      void dialog.accept();
    });
    await sessions(laptop).getByRole('button', { name: 'Log out everywhere' }).click();
    await laptop.waitForURL(`${baseUrl()}/login`);
    expect(await tokenOf(laptop)).toBeNull();
    expect((await apiCall('GET', '/auth/me', undefined, laptopToken!)).status).toBe(401);
  });

  it("the header's Logout ends the token on the server, not only in this browser", async () => {
    const account = await newAccount();
    const page = await device('laptop');
    await logIn(page, account);
    const token = await tokenOf(page);
    expect((await apiCall('GET', '/auth/me', undefined, token!)).status).toBe(200);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('link', { name: 'Login' }).waitFor();
    expect(await tokenOf(page)).toBeNull();
    expect((await apiCall('GET', '/auth/me', undefined, token!)).status).toBe(401);
  });

  it('changes the email with the password, and the old address undoes it from its link', async () => {
    const account = await newAccount();
    const [laptop, other] = [await device('laptop'), await device('phone')];
    await logIn(laptop, account);
    await logIn(other, account);
    await openProfile(laptop);
    const form = laptop.getByRole('form', { name: 'Profile' });
    const newEmail = `moved_${account.email}`;

    await form.getByLabel('Name').fill('Moved Person');
    expect(await form.getByLabel('Current password').count()).toBe(0);
    await form.getByLabel('Email').fill(newEmail);
    await form.getByLabel('Current password').waitFor();
    await form.getByRole('button', { name: 'Save Profile' }).click();
    await form.getByText('Enter your current password to change your email').waitFor();
    await form.getByLabel('Current password').fill('not my password at all');
    await form.getByRole('button', { name: 'Save Profile' }).click();
    await form.getByText('Current password is incorrect').waitFor();
    await form.getByLabel('Current password').fill(account.password);
    // Typing scrolled the page: the full-page picture starts from the top, under the sticky header.
    await laptop.evaluate(() => window.scrollTo(0, 0));
    await snap(laptop, 'profile-email-change');
    await form.getByRole('button', { name: 'Save Profile' }).click();
    await form.getByText(/Your other sessions have been logged out/).waitFor();
    expect(await form.getByLabel('Current password').count()).toBe(0);
    await laptop.waitForFunction(() => document.querySelectorAll('[data-testid="session-row"]').length === 1);
    // The change ended the other browser's session; this one goes on.
    await other.goto(`${baseUrl()}/dashboard?tab=profile`);
    await other.getByText('Please log in to view your dashboard.').waitFor();

    // The old address's notice carries the undo link; whoever opens it is asked before anything happens.
    const link = await linkInEmail(account.email, 'undo_email_change');
    const mailbox = await device('laptop');
    await mailbox.goto(link.replace(/^https?:\/\/[^/]+/, baseUrl()));
    await mailbox.getByRole('heading', { name: 'Undo an email change' }).waitFor();
    await snap(mailbox, 'undo-email-change');
    await mailbox.getByRole('button', { name: 'Undo the email change' }).click();
    await mailbox.getByText(/Your email address has been restored/).waitFor();
    await snap(mailbox, 'undo-email-change-done');

    // The undo retired the password: a new one comes through the restored address.
    await mailbox.getByRole('button', { name: 'Reset my password' }).click();
    await mailbox.getByRole('dialog').getByLabel('Email').fill(account.email);
    await mailbox.getByRole('button', { name: 'Send Reset Link' }).click();
    await mailbox.getByText('If an account with that email exists, a password reset link has been sent.').waitFor();
    const reset = await linkInEmail(account.email, 'reset_password');
    await mailbox.goto(reset.replace(/^https?:\/\/[^/]+/, baseUrl()));
    await mailbox.getByLabel('New password', { exact: true }).fill('taken-back-passphrase');
    await mailbox.getByLabel('Confirm new password').fill('taken-back-passphrase');
    await mailbox.getByRole('button', { name: 'Reset Password' }).click();
    await mailbox.waitForURL(`${baseUrl()}/login`, { timeout: 6000 });

    // Every session ended with the undo: the laptop that made the change is out at its next request.
    await laptop.getByRole('link', { name: 'My Bids' }).click();
    await laptop.getByText('Please log in to view your dashboard.').waitFor();

    await logInAs(mailbox, account.username, account.password);
    await mailbox.getByText('Incorrect username/email or password').waitFor();
    await logInAs(mailbox, account.username, 'taken-back-passphrase');
    await mailbox.waitForURL(`${baseUrl()}/`);
    await mailbox.goto(`${baseUrl()}/dashboard?tab=profile`);
    await mailbox.getByText(`(${account.email})`).waitFor();
  });
});
