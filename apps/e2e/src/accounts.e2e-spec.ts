import { randomBytes } from 'node:crypto';
import { baseUrl, snap } from './support/browser';
import { freshPagePerTest, logInAs, logInAsAdmin, registerThroughForm } from './support/journey';

const newAccount = () => {
  const tag = randomBytes(3).toString('hex');
  return { username: `journey_${tag}`, email: `journey_${tag}@example.com`, password: `walk-the-path-${tag}` };
};

describe('accounts in the browser', () => {
  const currentPage = freshPagePerTest();
  let page: ReturnType<typeof currentPage>;
  beforeEach(() => {
    page = currentPage();
  });

  const register = async (account: ReturnType<typeof newAccount>) => {
    await registerThroughForm(page, account);
    await page.getByRole('button', { name: 'Continue to Login' }).waitFor();
  };
  const logIn = (login: string, password: string) => logInAs(page, login, password);

  it('registers, logs in, keeps the session over a reload, and logs out', async () => {
    const account = newAccount();
    await page.goto(`${baseUrl()}/register`);
    await snap(page, 'register-empty');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Username must be 3 to 30 characters long').waitFor();
    await page.getByText('You must confirm that you are 18 or older').waitFor();
    await snap(page, 'register-errors');

    await register(account);
    await expectText(page.getByTestId('register-countdown'), /Redirecting to login in [1-8] seconds?\.\.\./);
    await snap(page, 'register-success');
    await page.getByRole('button', { name: 'Continue to Login' }).click();
    await page.waitForURL(`${baseUrl()}/login`);

    await logIn(account.username, 'not-my-password');
    await page.getByRole('alert').getByText('Incorrect username/email or password').waitFor();
    await snap(page, 'login-error');

    await logIn(account.email.toUpperCase(), account.password);
    await page.waitForURL(`${baseUrl()}/`);
    await expectText(page.getByTestId('header-user'), account.username);
    await expect(page.getByRole('link', { name: 'Sell', exact: true }).isVisible()).resolves.toBe(true);
    await snap(page, 'home-logged-in');

    await page.reload();
    await expectText(page.getByTestId('header-user'), account.username);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toMatch(/^ey/);

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('link', { name: 'Login' }).waitFor();
    await expect(page.getByRole('link', { name: 'Sell Your Site' }).isVisible()).resolves.toBe(true);
    expect(await page.getByTestId('header-user').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.reload();
    await page.getByRole('link', { name: 'Sign Up', exact: true }).waitFor();
    await snap(page, 'home-logged-out');
  });

  it('counts down from 8 seconds to the login page after registering', async () => {
    await register(newAccount());
    await page.waitForURL(`${baseUrl()}/login`, { timeout: 12_000 });
  });

  it('sends admins to the dashboard and pending sellers to /sell after login', async () => {
    await logInAsAdmin(page);
    await page.waitForURL(`${baseUrl()}/dashboard`);
    await page.getByText('Administrator').waitFor();
    await snap(page, 'dashboard-admin');

    await page.getByRole('button', { name: 'Logout' }).click();
    const account = newAccount();
    await register(account);
    await page.evaluate(() => sessionStorage.setItem('preLoginListingData', JSON.stringify({ title: 'My blog' })));
    await logIn(account.username, account.password);
    await page.waitForURL(`${baseUrl()}/sell`);
  });

  it('follows a logout and a login made in another tab', async () => {
    const first = newAccount();
    const second = newAccount();
    await register(first);
    await register(second);
    await logIn(first.username, first.password);
    await page.waitForURL(`${baseUrl()}/`);
    const other = await page.context().newPage();
    await other.goto(`${baseUrl()}/dashboard`);
    await expectText(other.getByTestId('header-user'), first.username);

    await page.getByRole('button', { name: 'Logout' }).click();
    await other.getByText('Please log in to view your dashboard.').waitFor();
    expect(await other.getByTestId('header-user').count()).toBe(0);

    await logIn(second.username, second.password);
    await page.waitForURL(`${baseUrl()}/`);
    await expectText(other.getByTestId('header-user'), second.username);
    await other.close();
  });

  it('drops a stored token the server refuses, silently', async () => {
    await page.goto(`${baseUrl()}/`);
    await page.evaluate(() => localStorage.setItem('token', 'not-a-real-token'));
    await page.reload();
    await page.getByRole('link', { name: 'Login' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('shows the dashboard login prompt to guests and a JSON 404 for unknown API paths', async () => {
    await page.goto(`${baseUrl()}/dashboard`);
    await page.getByText('Please log in to view your dashboard.').waitFor();
    await snap(page, 'dashboard-guest');
    const response = await page.goto(`${baseUrl()}/api/nothing-here`);
    expect(response?.status()).toBe(404);
    expect(await response?.json()).toHaveProperty('detail');
    await page.goto(`${baseUrl()}/some/client/route`);
    await page.getByText('Page not found').waitFor();
  });

  it('opens the mobile menu on a phone-sized screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${baseUrl()}/login`);
    await snap(page, 'login-phone');
    expect(await page.getByRole('link', { name: 'Sell Your Site' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('link', { name: 'Sell Your Site' }).waitFor();
    await snap(page, 'menu-phone');
    await page.getByRole('link', { name: 'Sign Up', exact: true }).click();
    await page.waitForURL(`${baseUrl()}/register`);
    // The menu closes itself on navigation.
    await page.getByRole('link', { name: 'Sell Your Site' }).waitFor({ state: 'hidden' });
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
  });
});

async function expectText(locator: import('playwright-core').Locator, expected: string | RegExp): Promise<void> {
  await locator.waitFor();
  const deadline = Date.now() + 5000;
  let text = '';
  while (Date.now() < deadline) {
    text = (await locator.textContent()) ?? '';
    if (typeof expected === 'string' ? text.includes(expected) : expected.test(text)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Expected ${String(expected)}, saw "${text}"`);
}
