import { randomBytes } from 'node:crypto';
import { baseUrl, snap } from './support/browser';
import { freshPagePerTest, logInAs, logInAsAdmin, registerThroughForm } from './support/journey';
import { adminToken, apiCall, linkInEmail } from './support/api';

const newAccount = () => {
  const tag = randomBytes(3).toString('hex');
  return { username: `acct_${tag}`, email: `acct_${tag}@example.com`, password: `first-pass-${tag}`, age_confirmed: true };
};

describe('accounts: verification, reset, suspension and impersonation in the browser', () => {
  const currentPage = freshPagePerTest();
  let page: ReturnType<typeof currentPage>;
  beforeEach(() => {
    page = currentPage();
  });
  const logIn = (login: string, password: string) => logInAs(page, login, password);

  it('verifies an email from the link in the email', async () => {
    const account = newAccount();
    await registerThroughForm(page, account);
    await page.getByRole('button', { name: 'Continue to Login' }).waitFor();

    const link = await linkInEmail(account.email, 'verify_email');
    await page.goto(link.replace(/^https?:\/\/[^/]+/, baseUrl()));
    await page.getByText('Email verified successfully!').waitFor();
    await snap(page, 'verify-email-success');
    await page.waitForURL(`${baseUrl()}/login`, { timeout: 8000 });

    await page.goto(link.replace(/^https?:\/\/[^/]+/, baseUrl()));
    await page.getByText('Email verification failed. The link may have expired.').waitFor();
    await snap(page, 'verify-email-error');
    await page.goto(`${baseUrl()}/verify-email`);
    await page.getByText('No verification token provided. Please check your email link.').waitFor();
  });

  it('resets a forgotten password and logs in with the new one', async () => {
    const account = newAccount();
    await apiCall('POST', '/auth/register', account);
    await page.goto(`${baseUrl()}/login`);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByRole('dialog').getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByText('If an account with that email exists, a password reset link has been sent.').waitFor();
    await snap(page, 'forgot-password-sent');

    const link = await linkInEmail(account.email, 'reset_password');
    await page.goto(link.replace(/^https?:\/\/[^/]+/, baseUrl()));
    await page.getByLabel('New password', { exact: true }).fill('brand-new-passphrase');
    await page.getByLabel('Confirm new password').fill('does-not-match');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Passwords do not match').waitFor();
    await page.getByLabel('Confirm new password').fill('brand-new-passphrase');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText(/Your password has been reset/).waitFor();
    await snap(page, 'reset-password-success');
    await page.waitForURL(`${baseUrl()}/login`, { timeout: 6000 });

    await page.getByLabel('Username or email').fill(account.username);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('Incorrect username/email or password').waitFor();
    await page.getByLabel('Password').fill('brand-new-passphrase');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(`${baseUrl()}/`);
    await page.getByTestId('header-user').getByText(account.username).waitFor();

    await page.goto(`${baseUrl()}/reset-password`);
    await page.getByRole('heading', { name: 'Invalid Reset Link' }).waitFor();
  });

  it('logs a suspended user out of their open tab at their next request', async () => {
    const account = newAccount();
    const registered = await apiCall<{ user: { id: string } }>('POST', '/auth/register', account);
    await logIn(account.username, account.password);
    await page.waitForURL(`${baseUrl()}/`);
    await page.goto(`${baseUrl()}/dashboard?tab=profile`);
    await page.getByRole('heading', { name: 'Profile', exact: true }).waitFor();
    await snap(page, 'dashboard-profile');

    const suspended = await apiCall('PATCH', `/admin/users/${registered.body.user.id}`, { status: 'suspended' }, await adminToken());
    expect(suspended.status).toBe(200);

    await page.getByLabel('Name').fill('Still Here');
    await page.getByRole('button', { name: 'Save Profile' }).click();
    await page.getByRole('link', { name: 'Login' }).waitFor();
    await page.getByText('Please log in to view your dashboard.').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    await logIn(account.username, account.password);
    await page.getByText(/suspended/).waitFor();
  });

  it('lets an admin log in as a user and return to the admin dashboard', async () => {
    const account = newAccount();
    await apiCall('POST', '/auth/register', account);
    await logInAsAdmin(page);
    await page.waitForURL(`${baseUrl()}/dashboard`);
    await page.getByRole('link', { name: 'Users' }).click();
    const row = page.getByTestId(`user-row-${account.username}`);
    await row.waitFor();
    await page.getByText(/Showing \d+ of \d+ users/).waitFor();
    await snap(page, 'admin-users');

    await row.getByRole('button', { name: 'Log in as' }).click();
    await page.waitForURL(`${baseUrl()}/`);
    const banner = page.getByTestId('impersonation-banner');
    await banner.getByText(account.username).waitFor();
    await page.getByTestId('header-user').getByText(account.username).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('impersonating'))).toBe('true');
    await snap(page, 'impersonation-banner');

    await banner.getByRole('button', { name: 'Return to Admin' }).click();
    await page.waitForURL(`${baseUrl()}/dashboard`);
    await page.getByText('Administrator').waitFor();
    expect(await page.getByTestId('impersonation-banner').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('original_admin_token'))).toBeNull();

    await page.goto(`${baseUrl()}/dashboard?tab=overview`);
    await page.getByRole('cell', { name: 'impersonation.stop' }).first().waitFor();
    await snap(page, 'admin-overview');
  });
});
