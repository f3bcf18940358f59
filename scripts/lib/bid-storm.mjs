// The bid storm driver of npm run bench:bids: accounts and auctions through the public API, then concurrent bidders
// who each bid the smallest next bid they know (D6) and learn the real one from every answer.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

import { minimumNextBid } from './build.mjs';
export { minimumNextBid };

/** Milliseconds since the epoch with sub-millisecond precision, comparable across worker threads. */
export const clock = () => performance.timeOrigin + performance.now();

/** The p-th percentile of an ascending array (nearest rank), or null when it is empty. */
export const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : null);

/** A JSON API client over keep-alive sockets (at most `sockets` at once, so each bidder keeps its own). */
export function apiClient(baseUrl, sockets = 64) {
  const base = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const call = (method, path, body, token) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? null : Buffer.from(JSON.stringify(body));
      const headers = { accept: 'application/json' };
      if (payload) Object.assign(headers, { 'content-type': 'application/json', 'content-length': payload.length });
      if (token) headers.authorization = `Bearer ${token}`;
      const request = http.request({ agent, host: base.hostname, port: base.port, method, path: `/api${path}`, headers }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json = null;
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON: the status says enough
          }
          resolve({ status: response.statusCode, body: json, text, retryAfter: response.headers['retry-after'] ?? null });
        });
        response.on('error', reject);
      });
      request.setTimeout(30_000, () => request.destroy(new Error(`${method} ${path}: no answer in 30 s`)));
      request.on('error', reject);
      request.end(payload);
    });
  return { call, close: () => agent.destroy() };
}

/** Runs `task` over `items` with at most `limit` at a time; results in order. */
export async function eachLimited(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index], index);
      }
    }),
  );
  return results;
}

async function expect(promise, status, what) {
  const answer = await promise;
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer.body;
}

/**
 * Registers and logs in `count` accounts (argon2 is slow: four at a time); returns their tokens. The admin confirms each
 * email (bench addresses receive no mail; bidding and selling need a verified email, ADR 0037).
 */
export async function registerAccounts(api, prefix, count, adminToken) {
  return (await registerBidders(api, prefix, count, adminToken)).map((account) => account.token);
}

/** As registerAccounts, with each account's user id: [{token, id}] (the end-state checks match stored bids to bidders). */
export async function registerBidders(api, prefix, count, adminToken) {
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  return eachLimited(Array.from({ length: count }, (_, i) => i), 4, async (i) => {
    const username = `${prefix}${i}_${tag}`;
    const password = `bench-bids-${tag}-${i}`;
    const registered = await expect(api.call('POST', '/auth/register', { username, email: `${username}@example.com`, password, age_confirmed: true }), 201, `register ${username}`);
    await expect(api.call('PATCH', `/admin/users/${registered.user.id}`, { email_verified: true }, adminToken), 200, `confirm ${username}'s email`);
    const token = (await expect(api.call('POST', '/auth/login', { login: username, password }), 200, `login ${username}`)).access_token;
    return { token, id: registered.user.id };
  });
}

/**
 * A 503 that sheds load on purpose (a full per-auction queue answers it with Retry-After): its wait in ms, else null.
 * Other 503s (a lock timeout, a service away) are server errors.
 */
export function shedDelayMs(answer) {
  if (answer.status !== 503 || answer.retryAfter === null) return null;
  const seconds = Number(answer.retryAfter);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, 5000) : 1000;
}

/** What the end-state checks need of a 2xx bid answer (ADR 0055): the caller's bid as stored and the auction after it. */
export function acceptedBid(answer, { listingId, bidderId, amount, maxAmount, sentAt, answeredAt }) {
  const body = answer.body;
  return {
    id: body.bid.id,
    listingId,
    bidderId,
    // The stored amount of the bid the answer names (a raised maximum may name an automatic or an earlier bid).
    amount: body.bid.amount,
    typed: amount,
    maxAmount,
    currentBid: body.current_bid,
    bidCount: body.bid_count,
    leading: body.leading,
    // bids.service MAXIMUM_RAISED: the leader's request only raised their maximum and recorded nothing (ADR 0055).
    raisedOnly: body.message === 'Your maximum bid was raised.',
    sentAt,
    answeredAt,
  };
}

/** Creates `count` auctions as the seller and has the admin approve them; returns their ids. */
export async function createAuctions(api, { sellerToken, adminToken, count, startingPrice }) {
  const tag = Date.now().toString(36);
  return eachLimited(Array.from({ length: count }, (_, i) => i), 4, async (i) => {
    const listing = await expect(
      api.call(
        'POST',
        '/listings',
        {
          title: `Bid storm auction ${i} ${tag}`,
          description: 'An auction made by npm run bench:bids; it sells nothing and goes away with the bench database.',
          category: 'Blog',
          website_url: `https://bench-bids-${tag}-${i}.example.com`,
          monthly_revenue: 1200,
          annual_revenue: 14400,
          monthly_traffic: 30000,
          monthly_expenses: 200,
          profit_margin: 83,
          business_age_months: 26,
          monetization_methods: 'AdSense',
          listing_type: 'auction',
          auction_type: 'auto',
          starting_price: startingPrice,
          duration_days: 7,
        },
        sellerToken,
      ),
      201,
      'create listing',
    );
    if (listing.status !== 'active') await expect(api.call('PATCH', `/admin/listings/${listing.id}`, { status: 'active' }, adminToken), 200, `approve ${listing.id}`);
    return listing.id;
  });
}

/**
 * Waits until the bidding service knows every auction (it learns of them from listing events). The seller's own $1
 * bid is a probe that changes nothing: 404 while the auction is unknown there, 400 (own listing) once it is known.
 */
export async function waitForAuctions(api, sellerToken, ids, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  await eachLimited(ids, 4, async (id) => {
    for (;;) {
      const answer = await api.call('POST', '/bids', { listing_id: id, amount: 1 }, sellerToken);
      if (answer.status === 400) return;
      if (answer.status !== 404) throw new Error(`probe bid on ${id}: ${answer.status} ${answer.text.slice(0, 300)}`);
      if (Date.now() > deadline) throw new Error(`the bidding service never learned of auction ${id}`);
      await wait(200);
    }
  });
}

/** A refusal's reason with the amount left out, so races group together. */
const reasonKey = (status, detail) => `${status} ${typeof detail === 'string' ? detail.replace(/\$[\d,]+/g, '$X') : 'validation'}`;
/** Resolves after `ms`: a bidder's back-off or think time. */
export const wait = (ms) => new Promise((r) => setTimeout(r, ms));

/** What a storm's bidders tally beside their decisions: refusals by reason, shed 503s, 5xx and network errors. */
export function stormTally() {
  return { reasons: {}, shed: 0, serverErrors: 0, networkErrors: 0 };
}

/**
 * One storm request (POST /bids with `body`), shared by every storm loop: null after a network error; otherwise the
 * answer with its times and, for anything but a 201, its detail, counted under its reason in `tally`. A shed 503 is
 * waited out (Retry-After) and a 5xx backed off 100 ms before this returns them, marked `again` (the first also `shed`).
 */
export async function stormRequest(api, body, token, tally) {
  const sentAt = clock();
  let answer;
  try {
    answer = await api.call('POST', '/bids', body, token);
  } catch (error) {
    tally.networkErrors += 1;
    const key = `network ${error.message.slice(0, 80)}`;
    tally.reasons[key] = (tally.reasons[key] ?? 0) + 1;
    return null;
  }
  const answeredAt = clock();
  if (answer.status === 201) return { answer, sentAt, answeredAt, detail: undefined, again: false, shed: false };
  const detail = answer.body?.detail;
  const key = reasonKey(answer.status, detail);
  tally.reasons[key] = (tally.reasons[key] ?? 0) + 1;
  const retryIn = shedDelayMs(answer);
  if (retryIn !== null) {
    tally.shed += 1;
    await wait(retryIn);
    return { answer, sentAt, answeredAt, detail, again: true, shed: true };
  }
  if (answer.status >= 500) {
    tally.serverErrors += 1;
    await wait(100);
    return { answer, sentAt, answeredAt, detail, again: true, shed: false };
  }
  return { answer, sentAt, answeredAt, detail, again: false, shed: false };
}

/**
 * One storm phase: one worker per bidder token for `seconds`, each bidding on `pick(bidderIndex)`'s listing the smallest amount
 * it knows (its own view, learned from its answers: 201 current_bid, or a 400's 'at least $X').
 * Returns counts, latencies and every accepted bid (id, listing, amount, when it was sent and answered).
 */
export async function stormPhase(api, { tokens, bidderIds = [], pick, startingPrice, seconds, paceMs = 0 }) {
  const all = [];
  const acceptedLatency = [];
  const accepted = [];
  const tally = stormTally();
  const started = clock();
  const deadline = started + seconds * 1000;
  await Promise.all(
    tokens.map(async (token, bidder) => {
      const known = new Map();
      // Paced bidders start a request every paceMs (think time); the others send the next as soon as one is answered.
      const pace = async (sentAt) => {
        const left = sentAt + paceMs - clock();
        if (paceMs > 0 && left > 0) await wait(left);
      };
      if (paceMs > 0) await wait(Math.random() * paceMs);
      while (clock() < deadline) {
        const listingId = pick(bidder);
        const amount = known.get(listingId) ?? startingPrice;
        const sent = await stormRequest(api, { listing_id: listingId, amount }, token, tally);
        if (!sent) continue;
        const { answer, sentAt, answeredAt, detail } = sent;
        all.push(answeredAt - sentAt);
        if (answer.status === 201) {
          acceptedLatency.push(answeredAt - sentAt);
          accepted.push(acceptedBid(answer, { listingId, bidderId: bidderIds[bidder] ?? null, amount, maxAmount: null, sentAt, answeredAt }));
          known.set(listingId, minimumNextBid(startingPrice, answer.body.current_bid));
          await pace(sentAt);
          continue;
        }
        if (sent.shed) continue;
        const atLeast = typeof detail === 'string' ? /at least \$([\d,]+)/.exec(detail) : null;
        if (answer.status === 400 && atLeast) known.set(listingId, Number(atLeast[1].replace(/,/g, '')));
        else if (!sent.again) await wait(100);
        await pace(sentAt);
      }
    }),
  );
  const elapsed = (clock() - started) / 1000;
  all.sort((a, b) => a - b);
  acceptedLatency.sort((a, b) => a - b);
  return {
    seconds: elapsed,
    requests: all.length + tally.networkErrors,
    accepted,
    acceptedPerSecond: accepted.length / elapsed,
    requestsPerSecond: (all.length + tally.networkErrors) / elapsed,
    p50: percentile(all, 50),
    p99: percentile(all, 99),
    acceptedP50: percentile(acceptedLatency, 50),
    acceptedP99: percentile(acceptedLatency, 99),
    reasons: tally.reasons,
    clientErrors: Object.entries(tally.reasons).filter(([key]) => key.startsWith('4')).reduce((n, [, c]) => n + c, 0),
    serverErrors: tally.serverErrors,
    networkErrors: tally.networkErrors,
    shed: tally.shed,
  };
}
