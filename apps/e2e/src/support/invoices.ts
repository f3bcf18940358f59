import type { Locator, Page } from 'playwright-core';
import type { InvoiceDto, InvoicesResponse } from '@market/contracts';
import { eventually } from '@market/server-kit/testing';
import { apiCall, type ApiAccount } from './api';
import { baseUrl, snap } from './browser';
import { sidewaysOverflow } from './sales';

export const PHONE = { width: 375, height: 812 };
export const DESKTOP = { width: 1280, height: 900 };

/** The invoice of a listing's sale as an account (its buyer or seller) sees it through the API. */
export async function invoiceOf(account: ApiAccount, listingId: string): Promise<InvoiceDto> {
  const { body } = await apiCall<InvoicesResponse>('GET', '/invoices', undefined, account.token);
  const invoice = body.invoices.find((row) => row.listing_id === listingId);
  if (!invoice) throw new Error(`${account.username} has no invoice for ${listingId}`);
  return invoice;
}

/** A screenshot at desktop width and at 375 px, checking the narrow page does not scroll sideways. */
export async function snapBoth(page: Page, name: string): Promise<void> {
  await snap(page, name);
  await page.setViewportSize(PHONE);
  // The page lays itself out again after the resize (a refetch may land meanwhile): polled, never read mid-layout.
  await eventually(async () => expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0), 3_000);
  await snap(page, `${name}-375`);
  await page.setViewportSize(DESKTOP);
}

/** The Invoices tab's row of a sale, opened afresh. */
export async function invoiceRow(page: Page, title: string): Promise<Locator> {
  await page.goto(`${baseUrl()}/dashboard?tab=invoices`);
  const row = page.getByTestId('invoice-row').filter({ hasText: title });
  await row.waitFor();
  return row;
}
