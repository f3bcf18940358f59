// bench:browse's data: the generated listings (one INSERT ... SELECT per batch) and the varied queries of its mixed load.

// Words for generated titles and descriptions; 'espresso' and 'coffee' are rare on purpose (selective searches).
const SQL_WORDS = {
  adjectives: ['Profitable', 'Established', 'Growing', 'Passive', 'Evergreen', 'Niche', 'Turnkey', 'Automated', 'Popular', 'Trusted'],
  niches: ['fitness', 'travel', 'finance', 'gardening', 'parenting', 'gaming', 'pets', 'fashion', 'recipes', 'crypto', 'photography',
    'wellness', 'outdoor', 'education', 'productivity', 'marketing', 'music', 'beauty', 'home decor', 'cycling'],
  rare: ['espresso', 'coffee roasting', 'sourdough', 'aquarium', 'chess'],
};
const sqlArray = (words) => `(ARRAY[${words.map((w) => `'${w}'`).join(', ')}])`;

/**
 * One INSERT ... SELECT over generate_series(first, last) of `rows` in all: varied categories, types, prices and
 * revenues; ~90% active.
 */
export function bulkInsertSql(rows, first = 1, last = rows) {
  const { adjectives, niches, rare } = SQL_WORDS;
  return `
  INSERT INTO listings.listings (id, seller_id, title, description, category, listing_type, auction_type, status, featured, website_url,
    monthly_revenue, annual_revenue, monthly_traffic, monthly_expenses, profit_margin, business_age_months, monetization_methods,
    starting_price, reserve_price, buy_now_price, current_bid, bid_count, duration_days, approved_at, expires_at, created_at, updated_at)
  SELECT gen_random_uuid(), sellers.id[1 + (g % 500)], t.title, t.title || '. ' || t.body, t.category, t.listing_type, 'auto', t.status,
    t.status = 'active' AND g % 150 = 7, 'https://site' || g || '.example.com',
    t.revenue, t.revenue * 12, t.revenue * (10 + g % 40), t.revenue * (g % 60) / 100, (100 - g % 60)::numeric(4,1), 3 + g % 120,
    ARRAY['AdSense', 'Affiliate Marketing'], t.start, CASE WHEN t.listing_type = 'auction' AND g % 3 = 0 THEN t.start * 2 END,
    CASE WHEN t.listing_type = 'auction' AND g % 4 = 0 THEN t.start * 3 END,
    CASE WHEN t.listing_type = 'auction' AND g % 5 < 2 THEN t.start + t.start / 10 END, CASE WHEN t.listing_type = 'auction' THEN g % 7 ELSE 0 END,
    (ARRAY[3, 7, 14, 30])[1 + g % 4], t.created, t.created + interval '30 days', t.created, t.created
  FROM generate_series(${first}, ${last}) AS g
  CROSS JOIN (SELECT array_agg(gen_random_uuid()) AS id FROM generate_series(1, 500)) AS sellers
  CROSS JOIN LATERAL (
    SELECT
      ${sqlArray(adjectives)}[1 + g % ${adjectives.length}] || ' ' || n.niche || ' ' || c.noun || ' #' || g AS title,
      'A ' || c.noun || ' about ' || n.niche || ' with loyal readers, steady organic traffic and simple operations. '
        || 'Revenue comes from ads, affiliate links and sponsorships; the buyer gets the domain, content and email list. '
        || CASE WHEN g % 97 = 0 THEN 'Also covers ' || ${sqlArray(rare)}[1 + g % ${rare.length}] || ' guides. ' ELSE '' END AS body,
      c.category, c.noun,
      CASE WHEN g % 10 < 6 THEN 'auction' ELSE 'fixed' END AS listing_type,
      CASE WHEN g % 10 = 0 THEN (ARRAY['pending', 'paused', 'sold', 'expired'])[1 + (g / 10) % 4] ELSE 'active' END AS status,
      (50 + floor(exp(random() * 7)))::bigint * 10 AS revenue,
      (500 + floor(exp(random() * 12)))::bigint * 5 AS start,
      now() - (g::float8 / ${rows}) * interval '365 days' - random() * interval '1 hour' AS created
    FROM (SELECT ${sqlArray(niches)}[1 + (g * 7) % ${niches.length}] AS niche) n,
    (SELECT (ARRAY['Blog', 'E-commerce', 'SaaS', 'Content Site', 'Affiliate Site', 'Membership Site', 'Local Business', 'Newsletter'])[k] AS category,
            (ARRAY['blog', 'online store', 'SaaS app', 'content site', 'review site', 'membership site', 'local business', 'newsletter'])[k] AS noun
       FROM (SELECT 1 + (g * 13 + g / 7) % 8 AS k) kk) c
  ) t`;
}

// Shoppers' queries vary: a mix of searches, ranges, categories, sorts and pages, so that most requests miss the cache.
const MIX_WORDS = ['fitness', 'travel', 'finance', 'gardening', 'gaming', 'pets', 'recipes', 'crypto', 'espresso', 'chess', 'aquarium', 'music'];
const MIX_CATEGORIES = ['Blog', 'E-commerce', 'SaaS', 'Content Site', 'Affiliate Site', 'Membership Site', 'Local Business', 'Newsletter'];
const MIX_SORTS = ['', 'sort_by=price&sort_order=asc', 'sort_by=price&sort_order=desc', 'sort_by=monthly_revenue&sort_order=desc'];
// mulberry32: a small seeded generator whose low bits are as random as its high ones (an LCG's are not).
let mixSeed = 7;
const mixRandom = (n) => {
  mixSeed = (mixSeed + 0x6d2b79f5) | 0;
  let t = Math.imul(mixSeed ^ (mixSeed >>> 15), 1 | mixSeed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
};
/** One varied browse URL: each part present or not, values from wide ranges. */
export function mixedQuery() {
  const parts = [];
  if (mixRandom(3) === 0) parts.push(`search=${MIX_WORDS[mixRandom(MIX_WORDS.length)]}`);
  if (mixRandom(2) === 0) parts.push(`category=${encodeURIComponent(MIX_CATEGORIES[mixRandom(MIX_CATEGORIES.length)])}`);
  if (mixRandom(4) === 0) parts.push(`min_price=${1000 * (1 + mixRandom(50))}`, `max_price=${100000 + 5000 * mixRandom(100)}`);
  if (mixRandom(5) === 0) parts.push(`min_revenue=${100 * (1 + mixRandom(100))}`);
  if (mixRandom(4) === 0) parts.push(`listing_type=${mixRandom(2) ? 'auction' : 'fixed'}`);
  const sort = MIX_SORTS[mixRandom(MIX_SORTS.length)];
  if (sort) parts.push(sort);
  parts.push(`page=${1 + mixRandom(20)}`);
  return parts.join('&');
}
