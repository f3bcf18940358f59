import { renderToStaticMarkup } from 'react-dom/server';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { ListingDto, UserDto } from '@market/contracts';
import { createStore, type AppStore } from '../../testing/test-store';
import { feesApi } from '../../api/fees.api';
import { api } from '../../lib/api';
import { userUpdated } from '../../session/session.slice';
import { ActionPanel } from './ActionPanel';
import { formatBidTime } from './bid-form';
import { PAYMENT_SETUP_FAILED } from './buy-now';
import { BuyNowDialog, BuyNowNotice } from './BuyNowDialog';

const inDays = (days: number) => new Date(Date.now() + days * 24 * 3600_000).toISOString();

const fixed = {
  id: 'listing-1',
  seller_id: 'seller',
  title: 'Tea shop',
  listing_type: 'fixed',
  auction_type: 'auto',
  status: 'active',
  starting_price: 8000,
  current_bid: null,
  buy_now_price: null,
  has_reserve: false,
  reserve_met: false,
  bid_count: 0,
  expires_at: inDays(20),
} as ListingDto;

const buyer = { id: 'buyer', username: 'ann_buyer', role: 'regular' } as UserDto;

/** The panel's markup for a viewer (null: a guest). */
function render(listing: ListingDto, viewer: UserDto | null, extendedUntil: string | null = null, store = createStore()): string {
  if (viewer) store.dispatch(userUpdated(viewer));
  return renderToStaticMarkup(
    <Provider store={store}>
      <MemoryRouter>
        <ActionPanel listing={listing} extendedUntil={extendedUntil} />
      </MemoryRouter>
    </Provider>,
  );
}

describe('ActionPanel offers (D4, D5)', () => {
  it('gives a signed-in buyer an offer form on a fixed price from 5000 up, next to the escrow contact', () => {
    const html = render(fixed, buyer);
    expect(html).toContain('aria-label="Make an offer"');
    expect(html).toContain('Your offer');
    expect(html).toMatch(/Offer up to <strong>\$8,000<\/strong>/);
    expect(html).toMatch(/<input[^>]*max="8000"/);
    expect(html).toContain('Contact seller about escrow');
    expect(html).not.toContain('Making offers is coming soon');
    // One "Make an offer" control only: the submit button, not also the old panel button.
    expect(html.match(/<button[^>]*>Make an offer<\/button>/g)).toEqual(['<button type="submit" class="btn btn-primary btn-block">Make an offer</button>']);
  });

  it('keeps the button for guests (it leads to /login) and shows them no form', () => {
    const html = render(fixed, null);
    expect(html).not.toContain('<form');
    expect(html).toMatch(/<button type="button"[^>]*>Make an offer<\/button>/);
    expect(html).toContain('Contact seller about escrow');
  });

  it('offers no form below 5000 (buy now instead), nor to the seller', () => {
    expect(render({ ...fixed, starting_price: 4999 }, buyer)).not.toContain('Make an offer');
    expect(render(fixed, { ...buyer, id: 'seller' })).not.toContain('Make an offer');
  });

  it('keeps the bid form, not an offer form, on auctions', () => {
    const html = render({ ...fixed, listing_type: 'auction', starting_price: 8000, buy_now_price: 20000 }, buyer);
    expect(html).toContain('aria-label="Place a bid"');
    expect(html).not.toContain('Make an offer');
  });
});

describe('ActionPanel live end (D9)', () => {
  const auction = { ...fixed, listing_type: 'auction', starting_price: 1000, expires_at: inDays(0.5) } as ListingDto;

  it('shows when the auction ends and a notice once it was extended live, as the server writes them (UTC, no clock)', () => {
    // Rendered as on the server (ADR 0072): times in UTC, said so, and the time left only once in the browser, whose
    // own zone and clock the journeys check (live-bidding).
    const until = inDays(0.51);
    const html = render({ ...auction, expires_at: until }, buyer, until);
    const utc = `${formatBidTime(until, 'en-US', 'UTC')} UTC`;
    expect(html).toContain(`Ends ${utc}`);
    expect(html).toContain(`Auction extended: now ends ${utc}`);
    expect(html).toContain('<p class="panel-days" data-testid="days-remaining">\u00a0</p>');
    expect(html).not.toContain('hours remaining');
  });

  it('shows no extension notice without one, nor once the listing is no longer active', () => {
    expect(render(auction, buyer)).not.toContain('Auction extended');
    expect(render({ ...auction, status: 'sold' }, buyer, inDays(0.51))).not.toContain('Auction extended');
  });
});

describe('ActionPanel buy now (D4, SPEC §4)', () => {
  const cheap = { ...fixed, starting_price: 4500 } as ListingDto;

  it('offers Buy Now below 5000 to buyers and guests, without a coming-soon notice', () => {
    for (const viewer of [buyer, null]) {
      const html = render(cheap, viewer);
      expect(html).toMatch(/<button type="button" class="btn btn-block btn-primary">Buy Now<\/button>/);
      expect(html).not.toContain('coming soon');
      expect(html).not.toContain('role="dialog"');
    }
  });

  it('offers it on an auction with a buy-now price below 5000, but never from 5000 up nor to the seller', () => {
    expect(render({ ...fixed, listing_type: 'auction', starting_price: 1000, buy_now_price: 4999 }, buyer)).toContain('>Buy Now</button>');
    expect(render({ ...cheap, starting_price: 5000 }, buyer)).not.toContain('Buy Now');
    expect(render(cheap, { ...buyer, id: 'seller' })).not.toContain('Buy Now');
  });
});

describe('BuyNowDialog', () => {
  const dialog = (busy: boolean) =>
    renderToStaticMarkup(<BuyNowDialog title="Tea shop" price={4500} busy={busy} onConfirm={() => undefined} onCancel={() => undefined} />);

  it('asks before buying, naming the listing and the price', () => {
    const html = dialog(false);
    expect(html).toContain('role="dialog"');
    expect(html).toContain('Buy &quot;Tea shop&quot; now for $4,500?');
    expect(html).toMatch(/<button type="button" class="btn btn-primary">Buy for \$4,500<\/button>/);
    expect(html).toMatch(/<button type="button" class="btn btn-ghost" autofocus="">Cancel<\/button>/);
  });

  it('cannot be sent again, nor cancelled, while the purchase runs', () => {
    const html = dialog(true);
    expect(html).toMatch(/<button type="button" class="btn btn-primary" disabled="">Processing purchase...<\/button>/);
    expect(html).toMatch(/<button type="button" class="btn btn-ghost" disabled="" autofocus="">Cancel<\/button>/);
  });
});

describe('BuyNowNotice', () => {
  const notice = (outcome: Parameters<typeof BuyNowNotice>[0]['outcome']) =>
    renderToStaticMarkup(
      <MemoryRouter>
        <BuyNowNotice outcome={outcome} />
      </MemoryRouter>,
    );

  it('shows the fallback message with a link to the invoice it is about to open', () => {
    const html = notice({ kind: 'invoice', text: 'Purchase successful!', to: '/dashboard?tab=invoices&pay=inv-1' });
    expect(html).toContain('Purchase successful! Taking you to your invoice...');
    expect(html).toContain('href="/dashboard?tab=invoices&amp;pay=inv-1"');
  });

  it('shows a failed setup as a warning and a refusal as an error', () => {
    expect(notice({ kind: 'setup_failed', text: PAYMENT_SETUP_FAILED })).toMatch(/class="alert alert-warning panel-notice" role="alert"[^>]*>Purchase successful, but payment setup failed/);
    expect(notice({ kind: 'error', text: 'This listing has already been sold' })).toMatch(/class="alert alert-error panel-notice" role="alert"[^>]*>This listing has already been sold</);
  });
});

describe('ActionPanel for a member whose email is not verified (ADR 0037)', () => {
  const unverified = { ...buyer, email_verified: false } as UserDto;
  const auction = { ...fixed, listing_type: 'auction', starting_price: 2000, buy_now_price: 4000 } as ListingDto;

  it('says why before they try and offers the link again, in place of the bid form and Buy Now', () => {
    const html = render(auction, unverified);
    expect(html).toContain('data-testid="verify-email-notice"');
    expect(html).toContain('Verify your email address to bid. We can send the link again from your profile.');
    expect(html).toContain('Send the verification link again');
    expect(html).not.toContain('aria-label="Place a bid"');
    expect(html).not.toContain('>Buy Now<');
    expect(html).toContain('Contact Seller');
  });

  it('names an offer on a fixed price from 5000 up and a purchase below it', () => {
    expect(render(fixed, unverified)).toContain('Verify your email address to make an offer.');
    expect(render(fixed, unverified)).not.toContain('aria-label="Make an offer"');
    expect(render({ ...fixed, starting_price: 3000 } as ListingDto, unverified)).toContain('Verify your email address to buy a website.');
  });

  const stores: AppStore[] = [];
  // An upserted answer nothing subscribes to is dropped after keepUnusedDataFor (a minute for the fees): resetting the
  // API state stops that timer, which would otherwise hold Jest open for a minute after the run.
  afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));

  /** A store that knows GET /api/fees's answer. */
  const storeWithFees = async (verifiedEmailRequired: boolean) => {
    const store = createStore();
    stores.push(store);
    await store.dispatch(feesApi.util.upsertQueryData('fees', undefined, { success_fee_percent: 0, verified_email_required: verifiedEmailRequired, inspection_days: 3 }));
    return store;
  };

  it('shows the forms as usual once verified, or while the admin does not require it', async () => {
    for (const html of [render(auction, { ...unverified, email_verified: true } as UserDto), render(auction, unverified, null, await storeWithFees(false))]) {
      expect(html).not.toContain('verify-email-notice');
      expect(html).toContain('>Buy Now<');
      expect(html).toContain('aria-label="Place a bid"');
    }
    expect(render(auction, unverified, null, await storeWithFees(true))).toContain('verify-email-notice');
  });

  it('never shows the notice to guests or on an ended listing', () => {
    expect(render(auction, null)).not.toContain('verify-email-notice');
    expect(render({ ...auction, status: 'expired' } as ListingDto, unverified)).not.toContain('verify-email-notice');
  });
});
