import { CreateListingSchema, listingPricingIssues, UpdateListingSchema } from './listing.schemas';

const valid = {
  title: 'Profitable cooking blog',
  description: 'A cooking blog with 200 recipes and steady search traffic.',
  category: 'Blog',
  website_url: 'https://cooking.example.com',
  monthly_revenue: 1200,
  annual_revenue: 14400,
  monthly_traffic: 25000,
  profit_margin: 62.5,
  business_age_months: 30,
  monetization_methods: ['AdSense', 'Affiliate Marketing'],
  starting_price: 5000,
};

const problems = (input: unknown) => {
  const result = CreateListingSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('CreateListingSchema', () => {
  it('accepts a JSON listing and fills the defaults', () => {
    const parsed = CreateListingSchema.parse(valid);
    expect(parsed).toMatchObject({ listing_type: 'auction', auction_type: 'auto', duration_days: 7, monthly_expenses: 0 });
  });

  it('accepts the multipart form: numbers as text, methods comma-joined, blanks as absent', () => {
    const parsed = CreateListingSchema.parse({
      ...valid,
      monthly_revenue: '1200',
      annual_revenue: '14400',
      monthly_traffic: '25000',
      profit_margin: '62.5',
      business_age_months: '30',
      starting_price: '5000',
      reserve_price: '',
      buy_now_price: '9000',
      duration_days: '14',
      monetization_methods: 'AdSense, Course Sales',
      key_metrics: '',
    });
    expect(parsed).toMatchObject({ monthly_revenue: 1200, buy_now_price: 9000, duration_days: 14, monetization_methods: ['AdSense', 'Course Sales'] });
    expect(parsed.reserve_price).toBeUndefined();
    expect(parsed.key_metrics).toBeUndefined();
  });

  it('refuses money that is not whole dollars, and nonsense numbers', () => {
    expect(problems({ ...valid, starting_price: 99.5 })).toEqual(['starting_price: Starting price must be whole dollars']);
    expect(problems({ ...valid, monthly_revenue: '12abc' })).toEqual(['monthly_revenue: Monthly revenue must be a number']);
    expect(problems({ ...valid, monthly_revenue: -1 })).toEqual(['monthly_revenue: Monthly revenue cannot be negative']);
    expect(problems({ ...valid, starting_price: 0 })).toEqual(['starting_price: Starting price must be at least $1']);
    expect(problems({ ...valid, profit_margin: 12.25 })).toEqual(['profit_margin: Profit margin has at most one decimal']);
  });

  it('checks category, methods, duration and URL against the one lists', () => {
    expect(problems({ ...valid, category: 'Affiliate' })).toEqual(['category: Choose a category']);
    expect(problems({ ...valid, monetization_methods: ['Crypto'] })).toEqual(['monetization_methods.0: Unknown monetization method']);
    expect(problems({ ...valid, duration_days: 10 })).toEqual(['duration_days: Duration must be 3, 7, 14 or 30 days']);
    expect(problems({ ...valid, website_url: 'cooking.example.com' })[0]).toMatch(/^website_url: /);
    expect(problems({ ...valid, website_url: 'javascript:alert(1)' })[0]).toMatch(/^website_url: /);
  });

  it('keeps reserve and buy-now to auctions, above the starting price', () => {
    expect(problems({ ...valid, listing_type: 'fixed', reserve_price: 6000 })).toEqual(['reserve_price: Only auctions have a reserve price']);
    expect(problems({ ...valid, reserve_price: 4000 })).toEqual(['reserve_price: Reserve price cannot be below the starting price']);
    expect(problems({ ...valid, reserve_price: 7000, buy_now_price: 7000 })).toEqual([
      'buy_now_price: Buy now price must be above the starting and reserve prices',
    ]);
    expect(problems({ ...valid, reserve_price: 7000, buy_now_price: 12000 })).toEqual([]);
  });

  it('requires the basic fields', () => {
    const missing = problems({});
    for (const field of ['title', 'description', 'category', 'website_url', 'starting_price']) {
      expect(missing.some((p) => p.startsWith(`${field}:`))).toBe(true);
    }
  });
});

describe('UpdateListingSchema (ADR 0036)', () => {
  const required = {
    title: valid.title,
    description: valid.description,
    category: valid.category,
    website_url: valid.website_url,
    monthly_revenue: '1200',
    annual_revenue: '14400',
    monthly_traffic: '25000',
    profit_margin: '62.5',
    business_age_months: '30',
    starting_price: '5000',
  };
  const optional = [
    'monthly_expenses',
    'monetization_methods',
    'listing_type',
    'auction_type',
    'reserve_price',
    'buy_now_price',
    'duration_days',
    'key_metrics',
    'growth_opportunities',
    'included_assets',
    'reason_for_selling',
    'existing_screenshots',
  ] as const;

  it('leaves every optional field it was not sent undefined, so the stored value stays', () => {
    const parsed = UpdateListingSchema.parse(required);
    for (const field of optional) expect(parsed[field]).toBeUndefined();
  });

  it('clears a field sent empty: no reserve, buy-now or text, expenses 0, no methods, no screenshots kept', () => {
    const blanks = Object.fromEntries(optional.map((field) => [field, '']));
    const parsed = UpdateListingSchema.parse({ ...required, ...blanks });
    expect(parsed).toMatchObject({
      monthly_expenses: 0,
      monetization_methods: [],
      reserve_price: null,
      buy_now_price: null,
      key_metrics: null,
      growth_opportunities: null,
      included_assets: null,
      reason_for_selling: null,
      existing_screenshots: [],
    });
    // A type or a duration cannot be cleared: empty keeps them too.
    expect(parsed.listing_type).toBeUndefined();
    expect(parsed.auction_type).toBeUndefined();
    expect(parsed.duration_days).toBeUndefined();
  });

  it('sets what it was sent, 0 included, and parses its own answer to the same (the gateway parses, then the service)', () => {
    const parsed = UpdateListingSchema.parse({ ...required, monthly_expenses: '0', reserve_price: '7000', key_metrics: ' 40% returning ', listing_type: 'auction' });
    expect(parsed).toMatchObject({ monthly_expenses: 0, reserve_price: 7000, key_metrics: '40% returning', listing_type: 'auction' });
    expect(UpdateListingSchema.parse(JSON.parse(JSON.stringify(parsed)))).toEqual(parsed);
    const cleared = UpdateListingSchema.parse({ ...required, reserve_price: '', existing_screenshots: '' });
    expect(UpdateListingSchema.parse(JSON.parse(JSON.stringify(cleared)))).toEqual(cleared);
  });

  it('still requires the fields of the edit form (SPEC §5)', () => {
    const result = UpdateListingSchema.safeParse({ ...required, title: undefined, starting_price: undefined });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(expect.arrayContaining(['title', 'starting_price']));
  });
});

describe('listingPricingIssues', () => {
  it('treats null as no price, as an edit that cleared it', () => {
    expect(listingPricingIssues({ listing_type: 'fixed', starting_price: 100, reserve_price: null, buy_now_price: null })).toEqual([]);
    expect(listingPricingIssues({ listing_type: 'fixed', starting_price: 100, reserve_price: 200 })).toEqual([
      { path: 'reserve_price', message: 'Only auctions have a reserve price' },
    ]);
  });
});
