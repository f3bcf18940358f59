import type { BidDto, ListingDto, MyStanding } from '@market/contracts';
import { createStore, type AppStore } from '../../testing/test-store';
import { bidsApi } from '../../api/bids.api';
import { api } from '../../lib/api';
import { renderStatic, visibleText } from '../../testing/static-render';
import { BidForm } from './BidForm';
import { OfferForm } from './OfferForm';
import { BidHistory } from './BidHistory';
import { MAX_BID_RULE } from './max-bid';
import { MaxBidField } from './MaxBidField';
import { RAISE_RULE } from './RaiseMaxForm';

const ID = '0b6f6f4e-3c1a-4c55-9a55-7f1b6f8f2c11';
const auction = { id: ID, listing_type: 'auction', auction_type: 'auto', starting_price: 2000, current_bid: 2100, buy_now_price: null } as ListingDto;

/** The <input> tag named `name` in rendered markup. */
const inputNamed = (html: string, name: string) => new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0];

describe('BidForm "Bid up to" (proxy bidding, ADR 0055)', () => {
  it('offers an optional maximum on an automatic auction, with its rule in one sentence tied to the field', () => {
    const html = renderStatic(<BidForm listing={auction} />);
    const text = visibleText(html);
    expect(text).toContain('Your bid');
    expect(text).toContain('Bid up to (optional)');
    expect(text).toContain(MAX_BID_RULE);
    const input = inputNamed(html, 'max_amount');
    expect(input).toMatch(/type="number"/);
    // At least the minimum next bid ($2,100 + $50), never required, and described by the rule.
    expect(input).toMatch(/min="2150"/);
    expect(input).not.toMatch(/required/);
    expect(input).toMatch(/aria-invalid="false"/);
    const ruleId = /aria-describedby="([^"]+)"/.exec(input ?? '')?.[1];
    expect(html).toContain(`id="${ruleId}" class="muted bid-rule">${MAX_BID_RULE.replace(/'/g, '&#x27;')}<`);
    // The field comes after the bid and before the button.
    expect(html.indexOf('name="amount"')).toBeLessThan(html.indexOf('name="max_amount"'));
    expect(html.indexOf('name="max_amount"')).toBeLessThan(html.indexOf('type="submit"'));
  });

  it('has no maximum on a manual auction (the seller picks) nor on an offer', () => {
    const manual = renderStatic(<BidForm listing={{ ...auction, auction_type: 'manual' }} />);
    expect(manual).toContain('aria-label="Place a bid"');
    expect(inputNamed(manual, 'max_amount')).toBeUndefined();
    expect(visibleText(manual)).not.toContain('Bid up to');
    const offer = renderStatic(<OfferForm listing={{ id: ID, starting_price: 8000, buy_now_price: null }} />);
    expect(inputNamed(offer, 'max_amount')).toBeUndefined();
    expect(visibleText(offer)).not.toContain('Bid up to');
  });
});

describe('BidForm for the leader with a maximum (ADR 0060)', () => {
  const stores: AppStore[] = [];
  afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));

  const own = (fields: Partial<MyStanding>): MyStanding => ({ listing_id: ID, has_bid: true, leading: true, max_amount: 3000, max_passed: false, ...fields });
  const withStanding = async (standing: MyStanding, listing: ListingDto = auction) => {
    const store = createStore();
    stores.push(store);
    await store.dispatch(bidsApi.util.upsertQueryData('myStanding', ID, standing));
    return renderStatic(<BidForm listing={listing} />, store);
  };

  it('tells the leader they lead, shows their maximum to them, and offers only to raise it', async () => {
    const html = await withStanding(own({}));
    const text = visibleText(html);
    expect(html).toContain('aria-label="Raise your maximum"');
    expect(text).toContain("You're the highest bidder. Your maximum: $3,000 (only you see it)");
    expect(text).toContain(RAISE_RULE);
    expect(inputNamed(html, 'max_amount')).toMatch(/min="3001"/);
    expect(inputNamed(html, 'amount')).toBeUndefined();
    expect(html).toMatch(/<button type="submit"[^>]*>Raise maximum<\/button>/);
    expect(text).not.toContain('Place Bid');
  });

  it('gives the ordinary form to a leader without a maximum, to a passed maximum, and on a manual auction', async () => {
    const plain = visibleText(await withStanding(own({ max_amount: null })));
    expect(plain).toContain("You're the highest bidder.");
    expect(plain).toContain('Place Bid');
    const passed = visibleText(await withStanding(own({ leading: false, max_amount: 2500, max_passed: true })));
    expect(passed).toContain('Your maximum of $2,500 was passed (only you see it).');
    expect(passed).toContain('Place Bid');
    expect(passed).not.toContain('Raise maximum');
    // A bidder outbid without a maximum of their own is told nothing of one.
    const outbid = visibleText(await withStanding(own({ leading: false, max_amount: null })));
    expect(outbid).toContain('Place Bid');
    expect(outbid).not.toMatch(/highest bidder|maximum of/);
    // Nobody bids for anyone on a manual auction (ADR 0055): no standing is asked for, no raise offered.
    const manual = visibleText(await withStanding(own({}), { ...auction, auction_type: 'manual' }));
    expect(manual).toContain('Place Bid');
    expect(manual).not.toMatch(/maximum/i);
  });

  it('shows nothing of a maximum while the standing is unknown (loading or failed)', () => {
    const text = visibleText(renderStatic(<BidForm listing={auction} />));
    expect(text).toContain('Place Bid');
    expect(text).not.toMatch(/highest bidder|Your maximum/);
  });
});

describe('MaxBidField', () => {
  const field = (error: string | null, value = '') => renderStatic(<MaxBidField value={value} error={error} min={2105} onChange={() => undefined} />);

  it('shows its message right under the input, before the rule, and marks the input invalid', () => {
    const html = field('Your maximum bid must be at least your bid', '2000');
    const input = inputNamed(html, 'max_amount') ?? '';
    expect(input).toMatch(/value="2000"/);
    expect(input).toMatch(/aria-invalid="true"/);
    const [errorId, ruleId] = (/aria-describedby="([^"]+)"/.exec(input)?.[1] ?? '').split(' ');
    expect(html).toContain(`<small id="${errorId}" class="field-error" role="alert">Your maximum bid must be at least your bid</small>`);
    expect(html.indexOf(input)).toBeLessThan(html.indexOf('role="alert"'));
    expect(html.indexOf('role="alert"')).toBeLessThan(html.indexOf(`id="${ruleId}"`));
  });

  it('shows no message while there is none', () => {
    const html = field(null);
    expect(html).not.toContain('field-error');
    expect(html).not.toContain('role="alert"');
  });
});

describe('BidHistory marks automatic bids (ADR 0055)', () => {
  const stores: AppStore[] = [];
  afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));

  const history = async (bids: BidDto[]) => {
    const store = createStore();
    stores.push(store);
    await store.dispatch(bidsApi.util.upsertQueryData('bidHistory', ID, { bids }));
    return renderStatic(<BidHistory listingId={ID} />, store);
  };
  const bid = (fields: Partial<BidDto>): BidDto => ({ id: 'b1', bidder_name: 'ann_buyer', amount: 2105, automatic: false, created_at: '2026-11-26T10:00:00Z', ...fields });

  it('marks a bid placed for a maximum with a labelled auto badge, and no other', async () => {
    const html = await history([bid({ id: 'b2', automatic: true, amount: 2105 }), bid({ id: 'b1', bidder_name: 'bob_buyer', amount: 2100 })]);
    const [autoRow, typedRow] = html.match(/<li>.*?<\/li>/g) ?? [];
    expect(autoRow).toContain('title="Placed automatically for a maximum"');
    expect(autoRow).toContain('<span aria-hidden="true">auto</span><span class="visually-hidden">placed automatically for a maximum</span>');
    expect(visibleText(autoRow ?? '')).toMatch(/^ann_buyer auto placed automatically for a maximum \$2,105/);
    expect(typedRow).not.toContain('auto');
    expect(visibleText(typedRow ?? '')).toMatch(/^bob_buyer \$2,100/);
  });
});
