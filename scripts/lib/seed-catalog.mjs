// The demo market's content: sellers and 64 listings (8 per category, D1) with believable, searchable text and
// financials. Pure and seeded: the same list every run, so the seed can recognise what it already created.
import { seededRandom } from './png.mjs';

export const DEMO_PASSWORD = 'market-demo-2026';

/** Sellers beside demo_seller; `verified` ones get the admin's verified mark. */
export const SEED_SELLERS = [
  { username: 'demo_seller', name: 'Dana Seller', verified: true },
  { username: 'maria_builds', name: 'Maria Okafor', verified: true },
  { username: 'kwame_ventures', name: 'Kwame Mensah', verified: false },
  { username: 'jonas-webworks', name: 'Jonas Lindqvist', verified: true },
  { username: 'priya_growth', name: 'Priya Raman', verified: false },
  { username: 'sam_flips_sites', name: 'Sam Carter', verified: false },
  { username: 'elena-media', name: 'Elena Petrova', verified: true },
].map((seller) => ({ ...seller, email: seller.username === 'demo_seller' ? 'seller@example.com' : `${seller.username}@example.com`, password: DEMO_PASSWORD }));

// [site name, domain, niche] per category.
const SITES = {
  Blog: [
    ['Trail & Tent', 'trailandtent.com', 'hiking and camping gear'],
    ['The Frugal Kitchen', 'frugalkitchen.blog', 'budget cooking and meal prep'],
    ['Pixel Parenting', 'pixelparenting.com', 'parenting and family technology'],
    ['Minimal Money', 'minimalmoney.net', 'personal finance and saving'],
    ['Home Barista Hub', 'homebaristahub.com', 'espresso and home coffee brewing'],
    ['Code Garden', 'codegarden.dev', 'web development tutorials'],
    ['Urban Plant Diary', 'urbanplantdiary.com', 'houseplants and indoor gardening'],
    ['Runners Logbook', 'runnerslogbook.com', 'marathon training and running'],
  ],
  'E-commerce': [
    ['Brew Gear Co', 'brewgear.co', 'home brewing equipment'],
    ['Paws & Co Supply', 'pawsandco.shop', 'eco-friendly pet supplies'],
    ['Desk Haven', 'deskhaven.com', 'ergonomic office accessories'],
    ['Wildroot Skincare', 'wildrootskin.com', 'organic skincare'],
    ['Retro Thread', 'retrothread.store', 'vintage clothing'],
    ['Kettlebell Kings', 'kbkings.com', 'home fitness equipment'],
    ['Little Loom', 'littleloom.shop', 'handmade baby blankets'],
    ['Spice Route Market', 'spiceroute.market', 'artisan spices and seasonings'],
  ],
  SaaS: [
    ['Metricly', 'metricly.io', 'analytics dashboards for Shopify stores'],
    ['InvoiceFlow', 'invoiceflow.app', 'invoicing and payments for freelancers'],
    ['ShiftPilot', 'shiftpilot.io', 'staff scheduling for restaurants'],
    ['FormForge', 'formforge.dev', 'online forms and surveys'],
    ['UptimeOwl', 'uptimeowl.com', 'website uptime monitoring'],
    ['ReviewRadar', 'reviewradar.app', 'customer review management'],
    ['LinkSprout', 'linksprout.io', 'link-in-bio pages for creators'],
    ['TutorDesk', 'tutordesk.app', 'booking and billing for tutors'],
  ],
  'Content Site': [
    ['Gadget Digest', 'gadgetdigest.net', 'consumer technology news'],
    ['History Unboxed', 'historyunboxed.com', 'world history stories'],
    ['The Travel Ledger', 'travelledger.com', 'budget travel guides'],
    ['Recipe Atlas', 'recipeatlas.net', 'international recipes'],
    ['Space Notes', 'spacenotes.org', 'astronomy and space exploration'],
    ['DIY Fixer', 'diyfixer.com', 'home repair how-to guides'],
    ['Pet Care Central', 'petcarecentral.net', 'pet health advice'],
    ['Game Lore Hub', 'gamelorehub.com', 'video game guides and lore'],
  ],
  'Affiliate Site': [
    ['Best VPN Picks', 'bestvpnpicks.com', 'VPN reviews and comparisons'],
    ['Mattress Matchup', 'mattressmatchup.com', 'mattress reviews'],
    ['Camera Compass', 'cameracompass.com', 'camera and lens buying guides'],
    ['Hosting Scout', 'hostingscout.net', 'web hosting reviews'],
    ['Blender Bench', 'blenderbench.com', 'kitchen blender reviews'],
    ['Golf Gear Guide', 'golfgearguide.com', 'golf clubs and gear reviews'],
    ['Standing Desk Lab', 'standingdesklab.com', 'standing desk reviews'],
    ['Headphone Hive', 'headphonehive.com', 'headphone and earbud reviews'],
  ],
  'Membership Site': [
    ['Guitar Path Academy', 'guitarpath.academy', 'online guitar lessons'],
    ['Yoga at Home Club', 'yogaathome.club', 'online yoga classes'],
    ['Spanish Sprint', 'spanishsprint.com', 'Spanish language lessons'],
    ['Watercolor Studio', 'watercolorstudio.art', 'watercolor painting lessons'],
    ['Founder Circle', 'foundercircle.co', 'a startup founder community'],
    ['Chess Tactics Lab', 'chesstacticslab.com', 'chess training'],
    ['Photo Critique Club', 'photocritique.club', 'photography feedback'],
    ['Keto Kitchen Club', 'ketokitchen.club', 'keto meal plans'],
  ],
  'Local Business': [
    ['Austin Dog Walkers', 'austindogwalkers.com', 'dog walking in Austin'],
    ['Denver Gutter Pros', 'denvergutterpros.com', 'gutter cleaning in Denver'],
    ['Seattle Piano Tuning', 'seattlepianotuning.com', 'piano tuning in Seattle'],
    ['Miami Boat Rentals', 'miamiboatrentals.net', 'boat rentals in Miami'],
    ['Portland Bike Repair', 'portlandbikerepair.com', 'bicycle repair in Portland'],
    ['Chicago Move Helpers', 'chicagomovehelpers.com', 'moving help in Chicago'],
    ['Boston Tutors Network', 'bostontutors.net', 'in-home tutoring in Boston'],
    ['Phoenix Pool Care', 'phoenixpoolcare.com', 'pool cleaning in Phoenix'],
  ],
  Newsletter: [
    ['The Indie Builder Weekly', 'indiebuilder.email', 'bootstrapped startups'],
    ['Climate Brief', 'climatebrief.news', 'climate technology'],
    ['Design Dispatch', 'designdispatch.co', 'UI and product design'],
    ['Crypto Calm', 'cryptocalm.news', 'crypto markets without the hype'],
    ['Remote Jobs Roundup', 'remoteroundup.com', 'remote job listings'],
    ['AI Tools Daily', 'aitoolsdaily.io', 'AI tools and automation'],
    ['Sneaker Drops', 'sneakerdrops.news', 'sneaker releases'],
    ['Real Estate Notes', 'realestatenotes.co', 'real estate investing'],
  ],
};

// Per category: monthly revenue range, traffic range, profit margin range, the methods it earns with (D2), and lines.
const PROFILES = {
  Blog: { noun: 'blog', about: 'about', revenue: [400, 6000], traffic: [20_000, 300_000], margin: [70, 92], methods: ['AdSense', 'Affiliate Marketing', 'Sponsored Content', 'Email Marketing', 'Donations'],
    lines: ['Posts are evergreen and written in a friendly first-person voice, so they keep ranking for years.', 'The email list grows by a few hundred subscribers every month from content upgrades.', 'A part-time freelance writer produces four new articles a month from the existing content calendar.'] },
  'E-commerce': { noun: 'online store', about: 'selling', revenue: [4000, 60_000], traffic: [10_000, 150_000], margin: [15, 35], methods: ['E-commerce', 'Email Marketing', 'Affiliate Marketing'],
    lines: ['It runs on Shopify with two reliable suppliers and an inventory that turns over every six weeks.', 'About a third of orders come from returning customers thanks to the loyalty program and email flows.', 'Fulfilment is handled by a 3PL warehouse, so the owner spends about ten hours a week on it.'] },
  SaaS: { noun: 'SaaS product', about: 'for', revenue: [2000, 40_000], traffic: [5000, 80_000], margin: [55, 85], methods: ['Subscriptions', 'Consulting', 'Other'],
    lines: ['Customers pay monthly or yearly subscriptions through Stripe and churn is below four percent.', 'The codebase is TypeScript on Node and React with automated tests and a documented deployment.', 'Support takes about five hours a week; most questions are answered by the help center.'] },
  'Content Site': { noun: 'content site', about: 'about', revenue: [800, 15_000], traffic: [80_000, 1_500_000], margin: [65, 90], methods: ['AdSense', 'Affiliate Marketing', 'Sponsored Content', 'Premium Content'],
    lines: ['More than 600 articles, most of them updated within the last year, with a clean internal linking structure.', 'Display ads run through a premium ad network with strong RPMs in the US and UK.', 'Traffic is mostly organic search with a growing share from Pinterest and Google Discover.'] },
  'Affiliate Site': { noun: 'affiliate site', about: 'with', revenue: [1500, 25_000], traffic: [30_000, 400_000], margin: [70, 92], methods: ['Affiliate Marketing', 'AdSense', 'Email Marketing', 'Lead Generation'],
    lines: ['Reviews are hands-on with original photos, which has kept rankings stable through recent Google updates.', 'Income is spread over Amazon Associates and several direct affiliate programs with higher commissions.', 'Buying guides and comparison tables drive most of the conversions.'] },
  'Membership Site': { noun: 'membership site', about: 'offering', revenue: [1500, 20_000], traffic: [8000, 90_000], margin: [60, 85], methods: ['Subscriptions', 'Course Sales', 'Premium Content', 'Consulting'],
    lines: ['Members pay a monthly fee for new lessons every week, live Q&A sessions and a private community.', 'The course library has more than 200 video lessons hosted on a video platform that transfers with the site.', 'Average member lifetime is over nine months and annual plans are a growing share of revenue.'] },
  'Local Business': { noun: 'local service business', about: 'offering', revenue: [1500, 18_000], traffic: [2000, 25_000], margin: [20, 45], methods: ['Lead Generation', 'Consulting', 'Other'],
    lines: ['Bookings come through the website and the Google Business profile, which has more than 150 five-star reviews.', 'A small team of trained contractors does the work; the owner handles scheduling and quotes.', 'Repeat customers and referrals bring in about half of the monthly jobs.'] },
  Newsletter: { noun: 'newsletter', about: 'about', revenue: [500, 15_000], traffic: [5000, 60_000], margin: [75, 95], methods: ['Sponsored Content', 'Subscriptions', 'Premium Content', 'Email Marketing', 'Donations'],
    lines: ['Open rates sit above 45 percent and sponsors rebook because click-through rates are strong.', 'It is sent twice a week from Beehiiv and grows mostly through referrals and recommendations.', 'A paid tier adds deep-dive issues and an archive of every past edition.'] },
};

const REASONS = [
  'I am moving on to a new full-time venture and want the site to go to someone who can give it more time.',
  'After several years I want to focus on my other projects.',
  'Selling to fund a new product; the site needs an owner who can invest in content.',
  'Family commitments mean I can no longer give it the attention it deserves.',
  'Looking for a buyer with more marketing experience to take it to the next level.',
];
const GROWTH = [
  'Launch a YouTube channel to repurpose the best content.',
  'Add a paid tier or premium digital product for the most engaged readers.',
  'Expand into Spanish and German markets, where competition is lower.',
  'Start paid search campaigns; nothing has been spent on ads so far.',
  'Build partnerships with brands that already sponsor competitors.',
  'Improve conversion on the top landing pages with a redesign.',
];

const round = (value, step) => Math.max(step, Math.round(value / step) * step);
const thousands = (n) => (n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)}M` : n >= 1000 ? `${Math.round(n / 1000)}K` : `${n}`);
const ageText = (months) => (months < 24 ? `${months}-month` : `${Math.floor(months / 12)}-year`);

function titleFor(rand, name, phrase, monthly, traffic, months) {
  const options = [
    `${name}: ${phrase} with ${thousands(traffic)} monthly visitors`,
    `Profitable ${phrase}, $${monthly.toLocaleString('en-US')}/mo`,
    `${name} - ${ageText(months)}-old ${phrase}`,
    `${name}: established ${phrase}, $${thousands(monthly * 12)} a year`,
  ];
  return rand.pick(options).slice(0, 120);
}

/** The 64 demo listings with their seller, screenshot count and the admin's planned decision. */
export function buildCatalog(seed = 2026) {
  const rand = seededRandom(seed);
  const listings = [];
  for (const [category, sites] of Object.entries(SITES)) {
    const profile = PROFILES[category];
    sites.forEach(([name, domain, niche], i) => {
      const monthly = round(profile.revenue[0] + (profile.revenue[1] - profile.revenue[0]) * rand() ** 1.6, 50);
      const margin = Math.round((profile.margin[0] + (profile.margin[1] - profile.margin[0]) * rand()) * 10) / 10;
      const expenses = round(monthly * (1 - margin / 100), 10);
      const traffic = round(profile.traffic[0] + (profile.traffic[1] - profile.traffic[0]) * rand() ** 1.4, 100);
      const months = rand.int(8, 96);
      const methods = profile.methods.filter((_, m) => m === 0 || rand() < 0.45);
      const profit = monthly - expenses;
      const valuation = round(profit * 12 * (2.2 + rand() * 2), 500);
      const fixed = rand() < 0.3;
      const starting = fixed ? valuation : round(valuation * (0.55 + rand() * 0.25), 250);
      const reserve = !fixed && rand() < 0.45 ? round(valuation * 0.9, 250) : undefined;
      const buyNow = !fixed && rand() < 0.4 ? round(Math.max(valuation, reserve ?? 0) * 1.3, 500) : undefined;
      const duration = fixed ? 30 : rand.pick([3, 7, 7, 14, 14, 30]);
      const organic = rand.int(55, 85);
      const phrase = `${profile.noun} ${profile.about} ${niche}`;
      const firstGrowth = rand.int(0, GROWTH.length - 1);
      const description = [
        `${name} (${domain}) is a ${ageText(months)}-old ${phrase}.`,
        `It earns about $${monthly.toLocaleString('en-US')} a month from ${methods.join(', ')}, with ${traffic.toLocaleString('en-US')} monthly visitors and ${organic}% of traffic from organic search.`,
        ...profile.lines.filter(() => rand() < 0.8),
        `Monthly expenses are around $${expenses.toLocaleString('en-US')} for hosting, tools and freelancers, for a profit margin of ${margin}%.`,
        'The sale includes everything needed to run it from day one, and I will help with the handover for 30 days.',
      ].join(' ');
      listings.push({
        key: domain,
        seller: SEED_SELLERS[(listings.length * 3 + i) % SEED_SELLERS.length].username,
        shots: 1 + ((listings.length + rand.int(0, 2)) % 3),
        category,
        fields: {
          title: titleFor(rand, name, phrase, monthly, traffic, months),
          description,
          category,
          website_url: `https://${domain}`,
          monthly_revenue: monthly,
          annual_revenue: round(monthly * (11.4 + rand() * 1.2), 10),
          monthly_traffic: traffic,
          monthly_expenses: expenses,
          profit_margin: margin,
          business_age_months: months,
          monetization_methods: methods.join(','),
          listing_type: fixed ? 'fixed' : 'auction',
          auction_type: !fixed && rand() < 0.2 ? 'manual' : 'auto',
          starting_price: starting,
          reserve_price: reserve,
          buy_now_price: buyNow,
          duration_days: duration,
          key_metrics: `${thousands(traffic)} monthly visitors, ${organic}% organic, ${margin}% margin, ${thousands(rand.int(800, 40_000))} email subscribers.`,
          growth_opportunities: `${GROWTH[firstGrowth]} ${GROWTH[(firstGrowth + rand.int(1, GROWTH.length - 1)) % GROWTH.length]}`,
          included_assets: `Domain ${domain}, the website and its content, social accounts, email list, logo and brand files.`,
          reason_for_selling: rand.pick(REASONS),
        },
        name,
      });
    });
  }
  // The admin's plan: ~5 stay pending, ~8 featured, a few paused by their sellers; the rest go live.
  const order = listings.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = rand.int(0, i);
    [order[i], order[j]] = [order[j], order[i]];
  }
  order.slice(0, 5).forEach((i) => (listings[i].plan = 'pending'));
  order.slice(5, 13).forEach((i) => (listings[i].plan = 'featured'));
  order.slice(13, 16).forEach((i) => (listings[i].plan = 'paused'));
  for (const listing of listings) listing.plan ??= 'active';
  return listings;
}

