import { DataSource } from 'typeorm';
import { BID_HISTORY_TIMEOUT_MS } from '../../../listings-service/src/listings/bid-history.client';
import { createLiveListing } from '../support/auctions';
import { bearer, get, signUp, startStack, postCounted, type Stack } from '../support/start-stack';

const ADMIN = { email: 'history-admin@example.com', password: 'history-admin-pass-1' };
// Each service asks another for at most 5 s; the page must not wait for that.
const SERVICE_RPC_TIMEOUT_MS = 5000;

/** GET /api/listings/{id} when bidding-service does not answer (ADR 0036): the listing without its bid history. */
describe('a listing page while the bidding service is away', () => {
  let stack: Stack;
  let admin: string;
  const api = (path: string) => `${stack.url}/api${path}`;

  beforeAll(async () => {
    // No bidding-service: nobody answers bidding.history.
    stack = await startStack({
      services: ['auth', 'admin', 'listings'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100' },
    });
    admin = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('answers at once with everything but bid_history, which it leaves out rather than showing no bids', async () => {
    const seller = await signUp(stack.url);
    const listing = await createLiveListing(stack.url, seller.token, admin, { title: 'Aquarium hobby forum for sale' });
    // As if bid.placed had been consumed: the listing has bids only the bidding service can list.
    await stack.service('listings').get(DataSource).query('UPDATE listings SET current_bid = 9500, bid_count = 2 WHERE id = $1', [listing.id]);

    const started = Date.now();
    const page = await get(api(`/listings/${listing.id}`), bearer(seller.token));
    const took = Date.now() - started;
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ id: listing.id, current_bid: 9500, bid_count: 2, seller: { id: seller.id, username: seller.username } });
    expect(page.body).not.toHaveProperty('bid_history');
    // It waited BID_HISTORY_TIMEOUT_MS at most for the history, never the whole RPC timeout.
    expect(took).toBeLessThan(SERVICE_RPC_TIMEOUT_MS - BID_HISTORY_TIMEOUT_MS);

    // A listing without bids needs no answer: its history is known to be empty.
    const quiet = await createLiveListing(stack.url, seller.token, admin, { title: 'Terrarium builds blog for sale' });
    expect((await get(api(`/listings/${quiet.id}`))).body.bid_history).toEqual([]);
  });
});
