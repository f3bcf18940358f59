import type { Browser } from 'playwright-core';
import { baseUrl, launchBrowser, snap } from './support/browser';
import { registerAccount } from './support/api';
import { bidViaApi, loggedInPage, openSale, waitForLiveFeed } from './support/sales';

describe('messages between buyers and sellers', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a buyer contacts the seller from the listing; the seller sees the unread badge, reads and replies', async () => {
    const seller = await registerAccount('msgseller');
    const buyer = await registerAccount('msgbuyer');
    const rival = await registerAccount('msgrival');
    const listing = await openSale(seller, { title: 'Birding blog with a loyal newsletter' });

    const buyerPage = await loggedInPage(browser, buyer);
    await buyerPage.goto(`${baseUrl()}/listing/${listing.id}`);
    // Closing the dialog gives the keyboard back to the button that opened it.
    await buyerPage.getByRole('button', { name: 'Contact Seller' }).click();
    await buyerPage.getByRole('dialog', { name: 'Contact Seller' }).getByLabel('Message').waitFor();
    await buyerPage.keyboard.press('Escape');
    await buyerPage.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await buyerPage.evaluate(() => document.activeElement?.textContent)).toBe('Contact Seller');
    await buyerPage.getByRole('button', { name: 'Contact Seller' }).click();
    const dialog = buyerPage.getByRole('dialog', { name: 'Contact Seller' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Subject').inputValue()).toBe('Inquiry about "Birding blog with a loyal newsletter"');
    expect(await dialog.getByLabel('Message').inputValue()).toContain('"Birding blog with a loyal newsletter"');
    await dialog.getByLabel('Subject').fill('');
    await dialog.getByRole('button', { name: 'Send Message' }).click();
    await dialog.getByText('Subject is required').waitFor();
    await dialog.getByLabel('Subject').fill('Traffic sources?');
    await dialog.getByLabel('Message').fill('Hello! Where does most');
    // A bid arrives over the live feed while the buyer types: the page reloads the listing, and the dialog keeps the
    // keyboard (focus stays in the message, nothing typed is lost).
    await waitForLiveFeed(buyerPage, listing.id);
    await bidViaApi(rival, listing.id, Number(listing.starting_price));
    await buyerPage.locator('.panel-price').getByText('1 bid', { exact: true }).waitFor();
    await buyerPage.keyboard.type(' of the traffic come from?');
    expect(await dialog.getByLabel('Message').inputValue()).toBe('Hello! Where does most of the traffic come from?');
    await snap(buyerPage, 'messages-contact-seller');
    await dialog.getByRole('button', { name: 'Send Message' }).click();
    await dialog.getByText('Message sent successfully!').waitFor();
    await dialog.waitFor({ state: 'detached', timeout: 5000 });

    // Any page's header tells the seller; its link opens the Messages tab.
    const sellerPage = await loggedInPage(browser, seller);
    const headerUnread = sellerPage.getByRole('link', { name: '1 unread message' });
    await headerUnread.waitFor();
    await snap(sellerPage, 'messages-header-unread');
    await headerUnread.click();
    await sellerPage.waitForURL(/\/dashboard\?tab=messages$/);
    const tab = sellerPage.getByRole('link', { name: /^Messages\W+1 unread$/ });
    await tab.waitFor();
    expect(await sellerPage.getByTestId('unread-badge').textContent()).toBe('1');
    await tab.click();
    const conversation = sellerPage.getByRole('button', { name: new RegExp(`^${buyer.username}`) });
    await conversation.waitFor();
    await snap(sellerPage, 'messages-tab-unread');
    await conversation.click();
    await sellerPage.getByText('Hello! Where does most of the traffic come from?').waitFor();
    // Reading it clears the badge.
    await sellerPage.getByRole('link', { name: 'Messages', exact: true }).waitFor();
    expect(await sellerPage.getByTestId('unread-badge').count()).toBe(0);
    expect(await sellerPage.getByTestId('header-unread').count()).toBe(0);

    await sellerPage.getByRole('button', { name: 'Reply' }).click();
    const reply = sellerPage.getByRole('dialog', { name: `Reply to ${buyer.username}` });
    expect(await reply.getByLabel('Subject').inputValue()).toBe('Re: Traffic sources?');
    await reply.getByLabel('Message').fill('Mostly search, about 70%.');
    await reply.getByRole('button', { name: 'Send Message' }).click();
    await reply.getByText('Message sent successfully!').waitFor();
    await snap(sellerPage, 'messages-tab-thread');

    await buyerPage.goto(`${baseUrl()}/dashboard?tab=messages`);
    await buyerPage.getByRole('link', { name: /^Messages\W+1 unread$/ }).waitFor();
  });

  it('the seller messages a bidder from My Bids, at phone width', async () => {
    const seller = await registerAccount('bidseller');
    const bidder = await registerAccount('bidder');
    const listing = await openSale(seller, { title: 'Recipe site with 300 recipes', starting_price: '2000' });
    await bidViaApi(bidder, listing.id, 2000);

    const page = await loggedInPage(browser, seller, { width: 375, height: 812 });
    await page.goto(`${baseUrl()}/dashboard?tab=bids`);
    await page.getByRole('button', { name: 'Message bidder' }).click();
    const dialog = page.getByRole('dialog', { name: `Message ${bidder.username}` });
    expect(await dialog.getByLabel('Subject').inputValue()).toBe('Re: Your bid on "Recipe site with 300 recipes"');
    await snap(page, 'phone-messages-bidder-dialog');
    await dialog.getByRole('button', { name: 'Send Message' }).click();
    await dialog.getByText('Message sent successfully!').waitFor();

    // At phone width the menu button carries the unread mark; the menu's Messages link opens the tab.
    const bidderPage = await loggedInPage(browser, bidder, { width: 375, height: 812 });
    await bidderPage.getByRole('button', { name: 'Open menu, 1 unread message' }).click();
    await snap(bidderPage, 'phone-header-unread-menu');
    await bidderPage.getByRole('link', { name: 'Messages 1 unread message' }).click();
    await bidderPage.waitForURL(/\/dashboard\?tab=messages$/);
    await bidderPage.getByText('Re: Your bid on "Recipe site with 300 recipes"').first().waitFor();
    // The active tab, badge included, is scrolled fully into the phone's tab bar.
    await bidderPage.getByTestId('unread-badge').waitFor();
    await bidderPage.waitForFunction(() => {
      const bar = document.querySelector('nav.tabs');
      const tab = bar?.querySelector('[aria-current="page"]');
      if (!bar || !tab) return false;
      const [b, t] = [bar.getBoundingClientRect(), tab.getBoundingClientRect()];
      return t.left >= b.left - 1 && t.right <= b.right + 1;
    }, undefined, { timeout: 5000 });
    const overflow = await bidderPage.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await snap(bidderPage, 'phone-messages-tab');
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
