import { randomBytes } from 'node:crypto';
import type { Browser, Page, Route } from 'playwright-core';
import type { UserDto } from '@market/contracts';
import { eventually } from '@market/server-kit/testing';
import { adminToken, apiCall, registerAccount } from './support/api';
import { baseUrl, launchBrowser, snap } from './support/browser';
import { logInAsAdmin } from './support/journey';
import { sidewaysOverflow } from './support/sales';

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 900 };
const isAuditCall = (url: URL) => url.pathname === '/api/admin/audit';

/** Screenshots the page at 1280 px and at 375 px, where nothing may scroll sideways. */
async function snapBothWidths(page: Page, name: string): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await snap(page, name);
  await page.setViewportSize(PHONE);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await snap(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

describe('admin Audit tab (ADR 0032)', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('an admin changes a setting and suspends a user; the Audit tab lists both, the SMTP password never shown, and its filters narrow the list', async () => {
    const member = await registerAccount('audited');
    const secret = `smtp-secret-${randomBytes(4).toString('hex')}`;
    const token = await adminToken();
    const me = await apiCall<UserDto>('GET', '/auth/me', undefined, token);
    const members = await apiCall<{ users: UserDto[] }>('GET', '/admin/users?limit=1000', undefined, token);
    const memberId = members.body.users.find((user) => user.username === member.username)?.id as string;
    const before = (await apiCall<{ listing_fee: number }>('GET', '/admin/settings', undefined, token)).body;

    await logInAsAdmin(page);
    await page.waitForURL(/\/dashboard/);
    const tabs = page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link');
    await eventually(async () => expect(await tabs.allTextContents()).toEqual(['Overview', 'Users', 'Listings', 'Transactions', 'Payments', 'Ledger', 'Analytics', 'Settings', 'Audit', 'Profile']));

    // A setting (the listing fee, which nothing charges yet) and the SMTP password.
    await tabs.filter({ hasText: 'Settings' }).click();
    const listingFee = page.getByLabel('Listing fee');
    await listingFee.waitFor();
    const newFee = String(before.listing_fee + 7);
    await listingFee.fill(newFee);
    await page.getByLabel('SMTP password').fill(secret);
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/admin/settings') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    expect((await saved).status()).toBe(200);

    // The member, suspended from the Users tab.
    await tabs.filter({ hasText: 'Users' }).click();
    const row = page.getByTestId(`user-row-${member.username}`);
    const suspended = page.waitForResponse((r) => r.url().endsWith(`/api/admin/users/${memberId}`) && r.request().method() === 'PATCH');
    await row.getByRole('button', { name: 'Suspend' }).click();
    expect((await suspended).status()).toBe(200);
    // The result is announced in a toast (a status region), not a browser alert.
    await page.getByRole('status').filter({ hasText: /User .+ suspended successfully/ }).waitFor();
    await snap(page, 'admin-users-suspended-toast');

    await tabs.filter({ hasText: 'Audit' }).click();
    const rows = page.getByTestId('audit-row');
    const suspension = rows.filter({ hasText: member.username }).filter({ hasText: 'User suspended' });
    const settingsChange = rows.filter({ hasText: 'Settings changed' }).filter({ hasText: `Listing fee ($): ${before.listing_fee} → ${newFee}` });
    // The entries travel as events; reopening the tab asks again until both are there.
    await eventually(async () => {
      if ((await suspension.count()) === 0 || (await settingsChange.count()) === 0) {
        await tabs.filter({ hasText: 'Settings' }).click();
        await tabs.filter({ hasText: 'Audit' }).click();
        await rows.first().waitFor();
      }
      expect(await suspension.count()).toBe(1);
      expect(await settingsChange.count()).toBe(1);
    }, 20_000, 500);
    expect(await suspension.textContent()).toContain('status: active → suspended');
    expect(await settingsChange.first().textContent()).toContain('SMTP password: changed (not shown)');
    expect(await page.content()).not.toContain(secret);
    expect(await page.locator('table.admin-audit-table th').allTextContents()).toEqual(['When', 'Who', 'What', 'Target', 'Before → After']);
    await snapBothWidths(page, 'admin-audit');

    const filters = page.getByRole('form', { name: 'Audit filters' });
    const apply = async () => {
      const answered = page.waitForResponse((r) => isAuditCall(new URL(r.url())));
      await filters.getByRole('button', { name: 'Apply filters' }).click();
      expect((await answered).status()).toBe(200);
    };
    // Action: only suspensions.
    await filters.getByLabel('Action').selectOption('user.suspended');
    await apply();
    await eventually(async () => expect(new Set(await rows.evaluateAll((all) => all.map((r) => r.getAttribute('data-action'))))).toEqual(new Set(['user.suspended'])));
    expect(await suspension.count()).toBe(1);
    // Target: the member's id, every action: exactly the suspension.
    await filters.getByLabel('Action').selectOption('');
    await filters.getByLabel('Target id').fill(memberId);
    await apply();
    await eventually(async () => expect(await rows.count()).toBe(1));
    expect(await rows.first().getAttribute('data-action')).toBe('user.suspended');
    // Actor (part of the admin's username) and today: both entries; days long past: none.
    const today = new Date().toLocaleDateString('en-CA');
    await filters.getByLabel('Target id').fill('');
    await filters.getByLabel('Admin').fill(me.body.username.slice(0, 5));
    await filters.getByLabel('From').fill(today);
    await filters.getByLabel('To').fill(today);
    await apply();
    await eventually(async () => {
      expect(await suspension.count()).toBe(1);
      expect(await settingsChange.count()).toBe(1);
    });
    await filters.getByLabel('From').fill('2001-01-01');
    await filters.getByLabel('To').fill('2001-01-02');
    await apply();
    await page.getByText('No audit entries match these filters.').waitFor();
    expect(await rows.count()).toBe(0);
    await snapBothWidths(page, 'admin-audit-filtered-empty');
    await filters.getByRole('button', { name: 'Clear' }).click();
    await suspension.waitFor();

    // Settings back as they were (an empty password field keeps the stored one; no SMTP host uses it).
    await apiCall('POST', '/admin/settings', { ...(await apiCall<object>('GET', '/admin/settings', undefined, token)).body, listing_fee: before.listing_fee }, token);
  });

  it('shows its loading, empty and error states at both widths', async () => {
    // Loading: the answer is held until the screenshots are taken.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(isAuditCall, async (route: Route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${baseUrl()}/dashboard?tab=audit`);
    await page.getByText('Loading the audit log...').waitFor();
    await snapBothWidths(page, 'admin-audit-loading');
    release();
    await page.getByTestId('audit-row').first().waitFor();
    await page.unroute(isAuditCall);

    await page.route(isAuditCall, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ entries: [], next_cursor: null }) }));
    await page.goto(`${baseUrl()}/dashboard?tab=audit`);
    await page.getByText('No admin actions have been recorded yet.').waitFor();
    await snapBothWidths(page, 'admin-audit-empty');
    await page.unroute(isAuditCall);

    await page.route(isAuditCall, (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'Service temporarily unavailable, please try again' }) }));
    await page.goto(`${baseUrl()}/dashboard?tab=audit`);
    await page.getByText('Could not load the audit log: Service temporarily unavailable, please try again').waitFor();
    expect(await page.getByTestId('audit-row').count()).toBe(0);
    await snapBothWidths(page, 'admin-audit-error');
    // Try again, with the service back, brings the entries.
    await page.unroute(isAuditCall);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('audit-row').first().waitFor();
  });
});
