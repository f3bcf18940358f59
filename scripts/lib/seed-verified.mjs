// The demo market's verified figures (D24, ADR 0084): a few live listings connect the sandbox's Stripe and Google
// stand-ins through the same API a seller uses, so their pages show TEST MODE badges, charts and one inflated claim.
// A stack whose listings-service has no sandbox (and no provider) answers 409 "not set up here": nothing is seeded then.

/** The sandbox key whose account earns `cents` a month (its first digits, ADR 0084), unique per listing. */
const sandboxKey = (cents, listingId) => `rk_test_demo${cents}x${listingId.replace(/-/g, '')}`;

/** Goes through the sandbox's Google consent as its Allow button does, and hands the code back as the web page would. */
async function consentToGa4(call, token, listingId, propertyId) {
  const { body } = await call('POST', `/listings/${listingId}/verifications/ga4`, { token, json: { property_id: String(propertyId) } });
  const consent = new URL(body.authorize_url);
  const decide = new URL('/o/oauth2/v2/auth/decide', consent.origin);
  for (const scope of (consent.searchParams.get('scope') ?? '').split(' ').filter(Boolean)) decide.searchParams.append('scope', scope);
  for (const name of ['redirect_uri', 'state', 'prompt']) decide.searchParams.set(name, consent.searchParams.get(name) ?? '');
  decide.searchParams.set('offline', consent.searchParams.get('access_type') === 'offline' ? '1' : '0');
  decide.searchParams.set('decision', 'allow');
  const answer = await fetch(decide, { redirect: 'manual' });
  const back = new URL(answer.headers.get('location') ?? '');
  await call('POST', '/verifications/ga4/callback', { token, json: { code: back.searchParams.get('code'), state: back.searchParams.get('state') } });
}

/**
 * Connects the first live listings' sources: revenue as claimed for most, 30% under the claim for one (the buyer's
 * warning and the admin's flag), traffic as claimed. Answers how many sources were connected.
 */
export async function seedVerifiedFigures(call, created, sessions, log = () => {}) {
  const live = created.filter((listing) => listing.plan === 'active' || listing.plan === 'featured').slice(0, 5);
  let connected = 0;
  for (const [index, listing] of live.entries()) {
    const token = sessions.get(listing.owner).token;
    const claimedCents = Number(listing.fields.monthly_revenue) * 100;
    const cents = index === 1 ? Math.floor((claimedCents * 7) / 10) : claimedCents;
    const stripe = await call('POST', `/listings/${listing.id}/verifications/stripe`, { token, json: { key: sandboxKey(cents, listing.id) }, ok: [200, 409] });
    if (stripe.status === 409) {
      log('  verified figures: not set up on this stack (no sandbox), none seeded');
      return connected;
    }
    connected++;
    const traffic = Number(listing.fields.monthly_traffic);
    if (index < 3 && traffic > 0) {
      await consentToGa4(call, token, listing.id, traffic);
      connected++;
    }
  }
  return connected;
}
