import type { ReactElement } from 'react';
import type { UserBidRow } from '@market/contracts';
import { createStore, type AppStore } from '../../testing/test-store';
import { bidsApi } from '../../api/bids.api';
import { api } from '../../lib/api';
import { BidderMessageDialog } from './BidderMessageDialog';
import { BidRow } from './BidRow';
import { MyBidsTab } from './MyBidsTab';
import { NO_BIDS_TEXT } from './my-bids';
import { renderStatic, visibleText } from '../../testing/static-render';

// Jest has no CSS transform: the style sheets the components import are empty here.
jest.mock('../../components/form/form-fields.css', () => ({}));
jest.mock('../../components/feedback/feedback.css', () => ({}));
jest.mock('./my-bids.css', () => ({}));
jest.mock('../../components/messages/messages.css', () => ({}));

const render = (element: ReactElement, store: AppStore = createStore(), url = '/') => renderStatic(element, store, url);
const text = visibleText;


const base: UserBidRow = {
  id: 'bid-1',
  listing_id: 'listing-1',
  listing_title: 'Heron watching blog',
  current_bid: 2100,
  role: 'buyer',
  kind: 'bid',
  bidder_id: 'u-ann',
  bidder_username: 'ann_buyer',
  bidder_verified: false,
  amount: 2000,
  status: 'pending',
  is_winning: false,
  leading: false,
  latest: true,
  automatic: false,
  max_amount: null,
  created_at: '2026-11-22T12:00:00Z',
};

const stores: AppStore[] = [];
// Resetting the API state also stops the timers that would drop unused cache entries a minute later.
afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));

async function storeWithBids(bids: UserBidRow[]): Promise<AppStore> {
  const store = createStore();
  stores.push(store);
  await store.dispatch(bidsApi.util.upsertQueryData('userBids', undefined, { bids }));
  return store;
}

/** A store whose My Bids load failed: the API answered 503, as the gateway does when bidding-service is away. */
async function storeWithFailedLoad(): Promise<AppStore> {
  const store = createStore();
  stores.push(store);
  const { Request: NodeRequest, fetch: nodeFetch } = globalThis;
  // Relative URLs resolve against a stand-in origin, and fetch answers as the gateway would.
  globalThis.Request = class extends NodeRequest {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, 'http://market.test') : input, init);
    }
  };
  globalThis.fetch = async () =>
    new Response(JSON.stringify({ detail: 'Service temporarily unavailable, please try again' }), { status: 503, headers: { 'content-type': 'application/json' } });
  try {
    await store.dispatch(bidsApi.endpoints.userBids.initiate());
  } finally {
    globalThis.Request = NodeRequest;
    globalThis.fetch = nodeFetch;
  }
  return store;
}

describe('My Bids tab', () => {
  it('shows the loading state before the bids arrive', () => {
    expect(text(render(<MyBidsTab />))).toContain('Loading your bids...');
  });

  it('shows the empty state of SPEC §2 with a Browse Websites link', async () => {
    const html = render(<MyBidsTab />, await storeWithBids([]));
    expect(text(html)).toContain('My Bids (0)');
    expect(text(html)).toContain(NO_BIDS_TEXT);
    expect(html).toMatch(/<a class="btn btn-primary" href="\/browse"[^>]*>Browse Websites<\/a>/);
  });

  it('shows a failed load as an error with a way to try again, no count and no rows', async () => {
    const html = render(<MyBidsTab />, await storeWithFailedLoad());
    expect(text(html)).toContain('Could not load your bids: Service temporarily unavailable, please try again');
    expect(text(html)).toContain('Try again');
    expect(text(html)).not.toContain('My Bids (');
    expect(text(html)).not.toContain(NO_BIDS_TEXT);
    expect(html).not.toContain('data-testid="my-bid-row"');
  });

  it('lists every row with its amount and role, and counts them in the footer', async () => {
    const rows: UserBidRow[] = [
      base,
      { ...base, id: 'bid-2', listing_id: 'listing-2', listing_title: 'Tea shop', kind: 'offer', amount: 7000, current_bid: null },
      { ...base, id: 'bid-3', role: 'seller', listing_title: 'My SaaS', bidder_username: 'bob', amount: 25000 },
    ];
    const page = text(render(<MyBidsTab />, await storeWithBids(rows)));
    expect(page).toContain('My Bids (3)');
    expect(page).toContain('Heron watching blog');
    expect(page).toContain('$2,000');
    expect(page).toContain('$7,000');
    expect(page).toContain('$25,000');
    expect(page).toContain('Total: 3 Buyer: 2 Seller: 1');
  });
});

describe('BidRow', () => {
  it('gives a buyer badges and a View Listing link', () => {
    const html = render(<BidRow row={{ ...base, is_winning: true, current_bid: 2000 }} />);
    expect(text(html)).toContain('Winning');
    expect(text(html)).not.toContain('Outbid');
    expect(text(html)).toContain('Buyer');
    expect(html).toMatch(/href="\/listing\/listing-1"[^>]*>View Listing</);
    expect(text(html)).not.toContain('Accept');
  });

  it('labels an offer as Offer, and a pending one as waiting rather than outbid', () => {
    const page = text(render(<BidRow row={{ ...base, kind: 'offer', current_bid: null }} />));
    expect(page).toContain('Offer');
    expect(page).toContain('Offer pending');
    expect(page).not.toContain('Outbid');
  });

  it('shows Outbid and the current bid on a pending bid that no longer leads', () => {
    const page = text(render(<BidRow row={base} />));
    expect(page).toContain('Outbid');
    expect(page).toContain('Current bid $2,100');
  });

  it('gives the seller Accept, Reject, Message bidder and View bidder on a pending bid', () => {
    const page = text(render(<BidRow row={{ ...base, role: 'seller', bidder_verified: true }} />));
    for (const label of ['Accept', 'Reject', 'Message bidder', 'View bidder']) expect(page).toContain(label);
    expect(page).toContain('From ann_buyer');
    expect(page).toContain('Seller');
    expect(page).not.toContain('View Listing');
  });

  it('names amount and bidder on the seller buttons for screen readers', () => {
    const html = render(<BidRow row={{ ...base, role: 'seller' }} />);
    expect(html).toContain('aria-label="Accept bid of $2,000 from ann_buyer"');
    expect(html).toContain('aria-label="Reject bid of $2,000 from ann_buyer"');
  });

  it('shows the decision, or No actions, instead of buttons once a seller row is not pending', () => {
    const accepted = text(render(<BidRow row={{ ...base, role: 'seller', status: 'accepted' }} />));
    expect(accepted).toContain('Accepted');
    expect(accepted).not.toContain('Reject');
    expect(text(render(<BidRow row={{ ...base, role: 'seller', status: 'rejected' }} />))).toContain('Rejected');
    expect(text(render(<BidRow row={{ ...base, role: 'seller', status: 'lapsed' as never }} />))).toContain('No actions');
  });

  it('shows a row notice in the colour of its kind', () => {
    const html = render(<BidRow row={{ ...base, role: 'seller' }} notice={{ kind: 'error', text: 'Error accepting bid: This listing has already been sold' }} />);
    expect(html).toMatch(/class="alert my-bid-notice alert-error" role="alert">Error accepting bid: This listing has already been sold</);
    expect(render(<BidRow row={base} notice={{ kind: 'info', text: 'Profile view coming soon!' }} />)).toContain('role="status">Profile view coming soon!<');
  });

  it('disables Accept and Reject while the action runs', () => {
    const html = render(<BidRow row={{ ...base, role: 'seller' }} busy />);
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*aria-label="Accept/);
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*aria-label="Reject/);
  });
});

describe('BidRow with proxy bids (ADR 0055)', () => {
  it('shows the buyer their own maximum and whether they still lead', () => {
    const leading = text(render(<BidRow row={{ ...base, is_winning: true, leading: true, current_bid: 2000, max_amount: 3500 }} />));
    expect(leading).toContain('Your maximum: $3,500');
    expect(leading).toContain('Winning');
    const passed = text(render(<BidRow row={{ ...base, max_amount: 2050 }} />));
    expect(passed).toContain('Your maximum: $2,050');
    expect(passed).toContain('Outbid');
  });

  it("shows the leader's older row as Raised, quieter and without the maximum, never Outbid (ADR 0060)", () => {
    const older = { ...base, id: 'bid-0', amount: 1500, leading: true, latest: false, max_amount: 3500 };
    const html = render(<BidRow row={older} />);
    expect(text(html)).toContain('Raised');
    expect(text(html)).not.toContain('Outbid');
    expect(text(html)).not.toContain('Your maximum');
    expect(html).toContain('class="card my-bid-row my-bid-superseded"');
    expect(html).toMatch(/title="You bid again on this listing after this bid; your newest bid shows where you stand\."/);
  });

  it('tells the listing state once: Winning on the current row, Raised on the older one, one maximum', async () => {
    const rows: UserBidRow[] = [
      { ...base, id: 'bid-2', amount: 2105, automatic: true, is_winning: true, leading: true, max_amount: 3500 },
      { ...base, id: 'bid-1', amount: 2000, leading: true, latest: false, max_amount: 3500 },
    ];
    const page = text(render(<MyBidsTab />, await storeWithBids(rows)));
    expect(page).not.toContain('Outbid');
    expect(page.match(/Winning/g)).toHaveLength(1);
    expect(page.match(/Raised/g)).toHaveLength(1);
    expect(page.match(/Your maximum: \$3,500/g)).toHaveLength(1);
  });

  it('shows no maximum without one, and never on a seller row', () => {
    expect(text(render(<BidRow row={base} />))).not.toContain('maximum');
    // The server sends none on seller rows; the page would not show one even if it did.
    expect(text(render(<BidRow row={{ ...base, role: 'seller', max_amount: 9999 }} />))).not.toMatch(/maximum|\$9,999/);
  });

  it('marks a bid the system placed for the maximum', () => {
    const html = render(<BidRow row={{ ...base, automatic: true, amount: 2105, max_amount: 3500 }} />);
    expect(html).toContain('<span aria-hidden="true">auto</span><span class="visually-hidden">placed automatically for your maximum</span>');
    expect(render(<BidRow row={{ ...base, role: 'seller', automatic: true }} />)).toContain('placed automatically for a maximum');
    expect(render(<BidRow row={base} />)).not.toContain('placed automatically');
  });
});

describe('BidderMessageDialog', () => {
  it('opens prefilled to the bidder, ready to send', () => {
    const html = render(<BidderMessageDialog row={base} onClose={() => undefined} />);
    expect(html).toContain('role="dialog"');
    expect(text(html)).toContain('Message ann_buyer To: ann_buyer');
    expect(html).toContain('value="Re: Your bid on &quot;Heron watching blog&quot;"');
    expect(text(html)).toContain('Hi ann_buyer, Thank you for your bid of $2,000 on "Heron watching blog".');
    expect(html).toMatch(/<button type="submit" class="btn btn-primary">Send Message<\/button>/);
    expect(html).not.toMatch(/<(input|textarea)[^>]*(readonly|disabled)/i);
  });
});
