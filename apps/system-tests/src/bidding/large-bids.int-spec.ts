import { largeBidRefusal } from '@market/domain';
import { eventually } from '@market/server-kit/testing';
import { bearer, get, post, signUp, startStack, postCounted, type Stack } from '../support/start-stack';
import { createLiveListing } from '../support/auctions';

const ADMIN = { email: 'large-bids-admin@example.com', password: 'large-bids-admin-pass-1' };
const card = (number: string) => ({ card_number: number, exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: '123' });

/** Bids that cannot grief (ADR 0041): far above the price, a bid needs a verified card; billing is asked at the bid. */
describe('large bids need a verified card', () => {
  let stack: Stack;
  let adminToken: string;
  const api = (path: string) => `${stack.url}/api${path}`;
  const bid = (token: string, listingId: string, amount: number) => post(api('/bids'), { listing_id: listingId, amount }, bearer(token));
  /** A live auction bidding-service has heard of (a first bid below the start is refused by the rules, not 404). */
  const liveAuction = async (sellerToken: string, startingPrice: number, probe: string) => {
    const listing = await createLiveListing(stack.url, sellerToken, adminToken, { starting_price: startingPrice });
    await eventually(async () => expect((await bid(probe, listing.id, 1)).status).toBe(400), 15_000);
    return listing.id;
  };
  /** Saves a card through the sandbox's SetupIntent flow; answers the confirmation. */
  const saveCard = async (token: string, number: string) => {
    const setup = await post(api('/user/payment-method/setup'), undefined, bearer(token));
    expect(setup).toMatchObject({ status: 201, body: { provider: 'sandbox', publishable_key: null, setup_intent_id: expect.stringMatching(/^seti_sbx_/) } });
    return post(api(`/sandbox/setup-intents/${setup.body.setup_intent_id}/confirm`), { client_secret: setup.body.client_secret, ...card(number) }, bearer(token));
  };

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'admin', 'listings', 'bidding', 'billing'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100' },
    });
    adminToken = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('takes a bid of exactly 10x the minimum without a card and refuses a dollar more, saying where to add one', async () => {
    const [seller, bidder] = [await signUp(stack.url), await signUp(stack.url)];
    // Minimum $9,000: 10x ($90,000) is above the minimum + $50,000 ($59,000).
    const listing = await liveAuction(seller.token, 9000, bidder.token);
    expect(await bid(bidder.token, listing, 90_001)).toEqual(expect.objectContaining({ status: 403, body: expect.objectContaining({ detail: largeBidRefusal(9000) }) }));
    expect((await bid(bidder.token, listing, 90_001)).body.detail).toBe(
      'Bids above $90,000 need a verified payment method. Add a card under Payment method in your profile, then bid again.',
    );
    expect((await get(api(`/listings/${listing}/bids`))).body.bids).toEqual([]);
    expect((await bid(bidder.token, listing, 90_000)).status).toBe(201);
  });

  it('takes a bid of exactly the minimum + $50,000 without a card and refuses a dollar more', async () => {
    const [seller, bidder] = [await signUp(stack.url), await signUp(stack.url)];
    // Minimum $1,000: the minimum + $50,000 ($51,000) is above 10x ($10,000).
    const listing = await liveAuction(seller.token, 1000, bidder.token);
    expect(await bid(bidder.token, listing, 51_001)).toMatchObject({ status: 403, body: { detail: largeBidRefusal(1000) } });
    expect((await bid(bidder.token, listing, 51_000)).status).toBe(201);
  });

  it('accepts the large bid once a card is verified; a declined card saves nothing', async () => {
    const [seller, bidder, other] = [await signUp(stack.url), await signUp(stack.url), await signUp(stack.url)];
    const listing = await liveAuction(seller.token, 9000, bidder.token);
    expect((await get(api('/user/payment-method'), bearer(bidder.token))).body).toEqual({ verified: false, last4: null, saved_at: null });

    const declined = await saveCard(bidder.token, '4000000000000002');
    expect(declined).toMatchObject({ status: 200, body: { error: { code: 'card_declined', message: 'Your card was declined.' }, payment_method: { verified: false } } });
    expect((await bid(bidder.token, listing, 95_000)).status).toBe(403);

    // Another member cannot confirm this member's card setup.
    const setup = await post(api('/user/payment-method/setup'), undefined, bearer(bidder.token));
    const stolen = await post(api(`/sandbox/setup-intents/${setup.body.setup_intent_id}/confirm`), { client_secret: setup.body.client_secret, ...card('4242424242424242') }, bearer(other.token));
    expect(stolen.status).toBe(404);

    const saved = await saveCard(bidder.token, '4242 4242 4242 4242');
    expect(saved).toMatchObject({ status: 200, body: { error: null, payment_method: { verified: true, last4: '4242', saved_at: expect.any(String) } } });
    expect((await get(api('/user/payment-method'), bearer(bidder.token))).body).toMatchObject({ verified: true, last4: '4242' });
    expect((await get(api('/user/payment-method'), bearer(other.token))).body.verified).toBe(false);
    const large = await bid(bidder.token, listing, 95_000);
    expect(large).toMatchObject({ status: 201, body: { current_bid: 95_000 } });
  });

  it('never lets an admin acting as a member save a card in their name', async () => {
    const member = await signUp(stack.url);
    const impersonation = await post(api(`/admin/impersonate/${member.id}`), undefined, bearer(adminToken));
    expect(impersonation.status).toBe(200);
    const refused = await post(api('/user/payment-method/setup'), undefined, bearer(impersonation.body.impersonation_token));
    expect(refused).toMatchObject({ status: 403, body: { detail: 'A card cannot be saved while impersonating a user' } });
    expect((await get(api('/user/payment-method'), bearer(member.token))).body.verified).toBe(false);
  });

  it('refuses an invalid or expired card with a 422 naming the field', async () => {
    const bidder = await signUp(stack.url);
    const setup = await post(api('/user/payment-method/setup'), undefined, bearer(bidder.token));
    const confirm = (body: object) => post(api(`/sandbox/setup-intents/${setup.body.setup_intent_id}/confirm`), { client_secret: setup.body.client_secret, ...body }, bearer(bidder.token));
    expect((await confirm(card('4242424242424241'))).body.detail[0]).toMatchObject({ loc: ['body', 'card_number'], msg: 'Your card number is invalid.' });
    expect((await confirm({ ...card('4242424242424242'), exp_year: 2001 })).body.detail[0]).toMatchObject({ loc: ['body', 'exp_year'] });
    expect((await get(api('/user/payment-method'), bearer(bidder.token))).body.verified).toBe(false);
  });
});

describe('large bids while billing does not answer', () => {
  let stack: Stack;
  let adminToken: string;
  const api = (path: string) => `${stack.url}/api${path}`;

  beforeAll(async () => {
    // No billing-service: nobody answers billing.payment_method_status.
    stack = await startStack({
      services: ['auth', 'admin', 'listings', 'bidding'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100' },
    });
    adminToken = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('refuses a large bid with a 503 saying to try again, and takes small bids as ever', async () => {
    const [seller, bidder] = [await signUp(stack.url), await signUp(stack.url)];
    const listing = await createLiveListing(stack.url, seller.token, adminToken, { starting_price: 9000 });
    const bid = (amount: number) => post(api('/bids'), { listing_id: listing.id, amount }, bearer(bidder.token));
    await eventually(async () => expect((await bid(1)).status).toBe(400), 15_000);
    const refused = await bid(90_001);
    expect(refused).toMatchObject({ status: 503, body: { detail: expect.stringMatching(/^We could not check your saved card just now, so this bid was not placed\./) } });
    expect(refused.body.detail).toContain('bids up to $90,000 need no card');
    expect((await bid(90_000)).status).toBe(201);
  });
});
