import type { Browser, BrowserContext, Page } from 'playwright-core';
import { baseUrl, launchBrowser } from './browser';

/** One browser per spec file and a fresh context per test; returns a getter for the test's page. */
export function freshPagePerTest(viewport = { width: 1280, height: 860 }): () => Page {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext({ viewport });
    page = await context.newPage();
  });
  afterEach(async () => {
    await context?.close();
  });
  return () => page;
}

/** Logs in through the /login form. */
export async function logInAs(page: Page, login: string, password: string): Promise<void> {
  await page.goto(`${baseUrl()}/login`);
  await page.getByLabel('Username or email').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/** Logs the e2e admin in. */
export function logInAsAdmin(page: Page): Promise<void> {
  return logInAs(page, process.env.E2E_ADMIN_EMAIL as string, process.env.E2E_ADMIN_PASSWORD as string);
}

/** Fills and submits the /register form. */
export async function registerThroughForm(page: Page, account: { username: string; email: string; password: string }): Promise<void> {
  await page.goto(`${baseUrl()}/register`);
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByLabel('I am 18 or older').check();
  await page.getByRole('button', { name: 'Create Account' }).click();
}
