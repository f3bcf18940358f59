// Fills a running marketplace with the demo catalog (and a few bids) through its public HTTP API, so every listing passes the
// same validation, upload checks and review flow (D16) a real seller's does. Safe to run again: listings whose
// website_url already exists are skipped, and accounts that exist are logged into rather than registered.
import { buildCatalog, DEMO_PASSWORD, SEED_SELLERS } from './seed-catalog.mjs';
import { drawScreenshot } from './seed-screenshots.mjs';
import { minimumNextBid } from './build.mjs';
import { seedVerifiedFigures } from './seed-verified.mjs';

const BUYER = { username: 'demo_buyer', email: 'buyer@example.com', password: DEMO_PASSWORD, name: 'Bea Buyer' };
const SHOT_NAMES = ['home.png', 'inner-page.png', 'analytics.png'];

class ApiError extends Error {
  constructor(method, path, status, body) {
    super(`${method} ${path} -> ${status} ${typeof body === 'string' ? body : JSON.stringify(body)}`.slice(0, 500));
    this.status = status;
  }
}

function client(baseUrl) {
  /** One API call; JSON or multipart body; throws ApiError unless the status is in `ok`. */
  return async function call(method, path, { token, json, form, ok = [200, 201] } = {}) {
    const headers = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (json !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${baseUrl}/api${path}`, { method, headers, body: json !== undefined ? JSON.stringify(json) : form });
    const text = await response.text();
    let body = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text for the error message
    }
    if (!ok.includes(response.status)) throw new ApiError(method, path, response.status, body);
    return { status: response.status, body };
  };
}

/**
 * Logs an account in, registering it first when it does not exist yet (keeps the register rate limit untouched on reruns).
 * With `confirmBy` (an admin token) an unverified email is confirmed by the admin's act, since demo addresses receive no
 * mail and listing and bidding need a verified email (ADR 0037).
 */
async function signIn(call, account, { register = true, confirmBy = null } = {}) {
  const login = () => call('POST', '/auth/login', { json: { login: account.email, password: account.password }, ok: [200, 401] });
  let result = await login();
  if (result.status === 401 && register) {
    await call('POST', '/auth/register', {
      json: { username: account.username, email: account.email, password: account.password, age_confirmed: true },
      ok: [200, 201, 409],
    });
    result = await login();
  }
  if (result.status !== 200) throw new Error(`Cannot log in as ${account.username ?? account.email} (wrong password for an existing account?)`);
  const { access_token: token, user } = result.body;
  if (confirmBy && !user.email_verified) {
    await call('PATCH', `/admin/users/${user.id}`, { token: confirmBy, json: { email_verified: true } });
  }
  if (account.name && !user.name) {
    await call('PATCH', '/user/profile', { token, json: { name: account.name, email: user.email } }).catch(() => {});
  }
  return { token, user };
}

function listingForm(fields, screenshots) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.append(key, String(value));
  screenshots.forEach((png, i) => form.append('screenshots', new Blob([png], { type: 'image/png' }), SHOT_NAMES[i]));
  return form;
}

/**
 * Creates the demo market on a running system: sellers, 64 listings with screenshots across all categories,
 * the admin's review (most approved, 5 pending, 8 featured), a few paused by their sellers, a buyer's watchlist.
 * Returns a summary; `log` gets progress lines.
 */
export async function seedMarket({ baseUrl, admin, log = () => {}, seed = 2026 }) {
  const call = client(baseUrl);
  const catalog = buildCatalog(seed);
  const adminSession = await signIn(call, admin, { register: false }).catch((error) => {
    throw new Error(`Admin login failed (${error.message}); set ADMIN_EMAIL and ADMIN_PASSWORD`);
  });
  const existing = await call('GET', '/admin/listings?limit=1000', { token: adminSession.token });
  const known = new Set(existing.body.listings.map((listing) => listing.website_url));
  const todo = catalog.filter((listing) => !known.has(listing.fields.website_url));

  const sessions = new Map();
  for (const seller of SEED_SELLERS) {
    if (!todo.some((listing) => listing.seller === seller.username)) continue;
    try {
      sessions.set(seller.username, await signIn(call, seller, { confirmBy: adminSession.token }));
    } catch (error) {
      // A shared stack's register limit (10 an hour per address) must not stop the seed: others take the listings.
      if (error.status !== 429) throw error;
      log(`  ${seller.username} could not be registered (rate limited); their listings go to other sellers`);
    }
  }
  if (todo.length && sessions.size === 0) throw new Error('No seller account could be used');
  const sellerOf = (listing) => (sessions.has(listing.seller) ? listing.seller : [...sessions.keys()][listing.key.length % sessions.size]);

  const created = [];
  for (const listing of todo) {
    const owner = sellerOf(listing);
    const shots = Array.from({ length: listing.shots }, (_, index) =>
      drawScreenshot({ category: listing.category, name: listing.name, seed: `${seed}:${listing.key}`, index }),
    );
    const { body } = await call('POST', '/listings', { token: sessions.get(owner).token, form: listingForm(listing.fields, shots), ok: [201] });
    created.push({ ...listing, owner, id: body.id, status: body.status });
  }
  if (created.length) log(`  created ${created.length} listings (${created.reduce((n, l) => n + l.shots, 0)} screenshots)`);

  for (const listing of created) {
    const token = adminSession.token;
    if (listing.plan === 'pending') {
      // auto_approve may have made it active already; the demo wants some waiting for review.
      if (listing.status !== 'pending') await call('PATCH', `/admin/listings/${listing.id}`, { token, json: { status: 'pending' } });
      continue;
    }
    if (listing.status !== 'active') await call('PATCH', `/admin/listings/${listing.id}`, { token, json: { status: 'active' } });
    if (listing.plan === 'featured') await call('PATCH', `/admin/listings/${listing.id}`, { token, json: { featured: true } });
    if (listing.plan === 'paused') {
      await call('PATCH', `/listings/${listing.id}`, { token: sessions.get(listing.owner).token, json: { status: 'paused' } });
    }
  }

  for (const seller of SEED_SELLERS.filter((s) => s.verified && sessions.has(s.username))) {
    const { user } = sessions.get(seller.username);
    if (!user.verified) await call('PATCH', `/admin/users/${user.id}`, { token: adminSession.token, json: { verified: true } }).catch(() => {});
  }

  const watched = created.filter((listing) => listing.plan === 'active' || listing.plan === 'featured').slice(0, 4);
  if (watched.length) {
    const buyer = await signIn(call, BUYER, { confirmBy: adminSession.token }).catch(() => null);
    for (const listing of buyer ? watched : []) {
      await call('POST', '/user/watchlist', { token: buyer.token, json: { listing_id: listing.id }, ok: [200, 201, 400] });
    }
  }

  const verified = await seedVerifiedFigures(call, created, sessions, log);
  if (verified) log(`  connected ${verified} revenue and traffic sources (TEST MODE)`);

  const bids = await placeDemoBids(call, created, sessions, adminSession.token);
  if (bids) log(`  placed ${bids} demo bids`);
  const sold = await acceptDemoBid(call, created, sessions);

  const count = async (query) => (await call('GET', `/listings?limit=1${query}`)).body.total;
  const categories = {};
  for (const category of [...new Set(catalog.map((listing) => listing.category))]) categories[category] = await count(`&category=${encodeURIComponent(category)}`);
  return {
    created: created.length,
    skipped: catalog.length - todo.length,
    sellers: [...sessions.keys()],
    plans: Object.fromEntries(['active', 'featured', 'paused', 'pending'].map((plan) => [plan, created.filter((l) => l.plan === plan).length])),
    active_total: await count(''),
    featured_total: await count('&featured=true'),
    bids,
    verified,
    sold,
    ending_within_3_days: created.filter((l) => l.plan !== 'pending' && l.plan !== 'paused' && l.fields.listing_type === 'auction' && l.fields.duration_days === 3).length,
    categories,
  };
}

/**
 * A few live auctions get a short bidding war (the demo buyer and another seller, each bidding the minimum), so the
 * market shows prices moving. The bidding service learns of new auctions from events: the first bid may wait a moment.
 */
async function placeDemoBids(call, created, sessions, adminToken) {
  const buyer = await signIn(call, BUYER, { confirmBy: adminToken }).catch(() => null);
  if (!buyer) return 0;
  const auctions = created.filter((l) => (l.plan === 'active' || l.plan === 'featured') && l.fields.listing_type === 'auction').slice(0, 8);
  let placed = 0;
  for (const [index, listing] of auctions.entries()) {
    const rival = [...sessions.entries()].find(([name]) => name !== listing.owner)?.[1];
    const bidders = rival ? [buyer, rival] : [buyer];
    for (let round = 0; round < 2 + (index % 3); round += 1) {
      const { body } = await call('GET', `/listings/${listing.id}`);
      const amount = minimumNextBid(body.starting_price, body.current_bid);
      const token = bidders[round % bidders.length].token;
      for (let attempt = 0; attempt < 40; attempt += 1) {
        const answer = await call('POST', '/bids', { token, json: { listing_id: listing.id, amount }, ok: [201, 400, 404] });
        if (answer.status === 201) {
          placed += 1;
          break;
        }
        if (answer.status === 400) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      // The listing page learns the new price from an event too.
      for (let wait = 0; wait < 40 && (await call('GET', `/listings/${listing.id}`)).body.current_bid !== amount; wait += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
  return placed;
}

/**
 * One seller accepts the leading bid on their last demo auction (D8), so the demo has a sale: the listing shows SOLD,
 * My Bids shows Accepted, and both sides find the invoice on their Invoices tab.
 */
async function acceptDemoBid(call, created, sessions) {
  const auctions = created.filter((l) => (l.plan === 'active' || l.plan === 'featured') && l.fields.listing_type === 'auction').slice(0, 8);
  for (const listing of auctions.reverse()) {
    const seller = sessions.get(listing.owner);
    if (!seller) continue;
    const { body } = await call('GET', '/user/bids', { token: seller.token });
    const leading = (body.bids ?? []).find((bid) => bid.listing_id === listing.id && bid.status === 'pending' && bid.is_winning);
    if (!leading) continue;
    const answer = await call('POST', `/bids/${leading.id}/action`, { token: seller.token, json: { action: 'accept' }, ok: [200, 201, 400] });
    return answer.status === 400 ? null : { seller: listing.owner, title: listing.fields.title };
  }
  return null;
}

/** The summary as a few printable lines. */
export function formatSeedSummary(summary) {
  return [
    `Demo listings: ${summary.created} created, ${summary.skipped} already there` +
      (summary.created ? ` (approved ${summary.plans.active + summary.plans.featured + summary.plans.paused}, of which ${summary.plans.featured} featured and ${summary.plans.paused} paused by their sellers; ${summary.plans.pending} pending review; ${summary.ending_within_3_days} live auctions end within 3 days)` : ''),
    `Demo bids: ${summary.bids ?? 0}. Market now: ${summary.active_total} active listings, ${summary.featured_total} featured; ` +
      Object.entries(summary.categories).map(([category, n]) => `${category} ${n}`).join(', '),
    ...(summary.verified ? [`Verified figures: ${summary.verified} revenue and traffic sources connected through the sandbox's Stripe and Google stand-ins (TEST MODE; one revenue claim is 30% above its figure).`] : []),
    ...(summary.sold ? [`Demo sale: ${summary.sold.seller} accepted the leading bid on "${summary.sold.title}"; both sides find its invoice on the Invoices tab.`] : []),
  ];
}
