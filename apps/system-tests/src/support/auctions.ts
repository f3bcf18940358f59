import { minimumNextBid } from '@market/domain';
import { bearer, call, post, type Json } from './start-stack';
import { listingForm } from './images';

/** Creates a listing as its seller and has the admin approve it; sale fields may be overridden. */
export async function createLiveListing(baseUrl: string, sellerToken: string, adminToken: string, fields: Record<string, string | number> = {}): Promise<{ id: string }> {
  const form = listingForm({
    title: 'Bird watching blog with a big newsletter',
    description: 'A blog about bird watching with field guides, gear reviews and a weekly newsletter.',
    category: 'Blog',
    website_url: 'https://birds.example.com',
    monthly_revenue: 900,
    annual_revenue: 10800,
    monthly_traffic: 30000,
    profit_margin: 70,
    business_age_months: 40,
    monetization_methods: 'AdSense',
    starting_price: 9000,
    ...fields,
  });
  const created = await fetch(`${baseUrl}/api/listings`, { method: 'POST', headers: bearer(sellerToken), body: form });
  const listing = (await created.json()) as Json;
  if (created.status !== 201) throw new Error(`create listing: ${created.status} ${JSON.stringify(listing)}`);
  const approved = await call('PATCH', `${baseUrl}/api/admin/listings/${listing.id}`, { status: 'active' }, bearer(adminToken));
  if (approved.status !== 200) throw new Error(`approve listing: ${approved.status} ${JSON.stringify(approved.body)}`);
  return listing as { id: string };
}

export interface StormResult {
  status: number;
  body: Json;
  /** When the answer arrived (ms since the epoch). */
  at: number;
}

/**
 * Bidders bid the minimum next bid they know on one listing until `until`, spreading requests over the gateways;
 * they learn the price from 201 answers and from 'Bid must be at least $X' refusals. With `atLeast`, they go on past
 * `until` (for up to a minute) until that many bids were accepted: a busy machine decides fewer bids in the time, and
 * the storm is about what the bids do, not how many fit in a few seconds.
 */
export async function bidStorm(urls: string[], listingId: string, tokens: string[], startingPrice: number, until: number, atLeast = 0): Promise<StormResult[]> {
  const results: StormResult[] = [];
  let next = startingPrice;
  let accepted = 0;
  const going = () => Date.now() < until || (accepted < atLeast && Date.now() < until + 60_000);
  await Promise.all(
    tokens.map(async (token, i) => {
      for (let round = 0; going(); round += 1) {
        const url = urls[(i + round) % urls.length];
        const answer = await post(`${url}/api/bids`, { listing_id: listingId, amount: next }, bearer(token)).catch((error: Error) => ({
          status: 0,
          body: { detail: error.message },
        }));
        results.push({ ...answer, at: Date.now() });
        if (answer.status === 201) accepted += 1;
        if (answer.status === 201) next = Math.max(next, minimumNextBid(startingPrice, answer.body.current_bid as number));
        const floor = /at least \$([\d,]+)/.exec(String(answer.body?.detail ?? ''));
        if (floor) next = Math.max(next, Number(floor[1].replace(/,/g, '')));
        if (answer.status >= 500 || answer.status === 0) await new Promise((r) => setTimeout(r, 50));
      }
    }),
  );
  return results;
}
