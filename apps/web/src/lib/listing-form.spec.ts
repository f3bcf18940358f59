import type { ListingDto } from '@market/contracts';
import {
  buildCreateFormData,
  buildUpdateFormData,
  emptyListingForm,
  firstStepWithError,
  listingErrorText,
  listingToForm,
  savePreLoginListing,
  screenshotSelection,
  SELL_STEPS,
  takePreLoginListing,
  validateListing,
  validateListingFields,
  type ListingFormValues,
} from './listing-form';

const filled = (): ListingFormValues => ({
  ...emptyListingForm(),
  title: 'Profitable recipe blog',
  website_url: 'https://recipes.example.com',
  category: 'Blog',
  description: 'A recipe blog with a loyal audience and steady ad income.',
  monthly_revenue: '1200',
  annual_revenue: '14400',
  monthly_traffic: '50000',
  monthly_expenses: '200',
  profit_margin: '83.3',
  business_age_months: '30',
  monetization_methods: ['AdSense', 'Affiliate Marketing'],
  starting_price: '20000',
  reserve_price: '25000',
  buy_now_price: '40000',
});

const png = (name: string, size: number, type = 'image/png') => new File([new Uint8Array(size)], name, { type });

describe('step validation', () => {
  it('reports blank required fields of step 1 with readable messages', () => {
    const errors = validateListingFields(emptyListingForm(), SELL_STEPS[0].fields);
    expect(errors).toEqual({
      title: 'Title is required',
      website_url: 'Website URL is required',
      category: 'Choose a category',
      description: 'Description is required',
    });
  });

  it('uses the shared zod rules for filled but invalid fields', () => {
    const errors = validateListingFields({ ...filled(), title: 'Blog', website_url: 'recipes' }, SELL_STEPS[0].fields);
    expect(errors.title).toBe('Title must be at least 5 characters');
    expect(errors.website_url).toMatch(/http/);
    expect(errors.category).toBeUndefined();
  });

  it('only checks the fields of the step asked for', () => {
    const values = { ...emptyListingForm(), title: 'A fine title', website_url: 'https://a.example.com', category: 'SaaS', description: 'x'.repeat(25) };
    expect(validateListingFields(values, SELL_STEPS[0].fields)).toEqual({});
    expect(Object.keys(validateListingFields(values, SELL_STEPS[1].fields)).sort()).toEqual(
      ['annual_revenue', 'business_age_months', 'monthly_revenue', 'monthly_traffic', 'profit_margin'].sort(),
    );
  });

  it('checks profit margin to one decimal and monthly expenses as optional', () => {
    expect(validateListingFields({ ...filled(), profit_margin: '12.34' }, SELL_STEPS[1].fields).profit_margin).toBe('Profit margin has at most one decimal');
    expect(validateListingFields({ ...filled(), monthly_expenses: '' }, SELL_STEPS[1].fields)).toEqual({});
  });

  it('applies the auction pricing rules, and ignores reserve and buy-now for fixed prices', () => {
    const errors = validateListingFields({ ...filled(), reserve_price: '100' }, SELL_STEPS[2].fields);
    expect(errors.reserve_price).toBe('Reserve price cannot be below the starting price');
    expect(validateListingFields({ ...filled(), starting_price: '' }, SELL_STEPS[2].fields).starting_price).toBe('Starting price is required');
    expect(validateListingFields({ ...filled(), listing_type: 'fixed', reserve_price: '100', buy_now_price: '5' }, SELL_STEPS[2].fields)).toEqual({});
  });

  it('validates everything at submit and points at the first failing step', () => {
    expect(validateListing(filled())).toEqual({});
    const errors = validateListing({ ...filled(), monthly_traffic: '', buy_now_price: '1' });
    expect(Object.keys(errors).sort()).toEqual(['buy_now_price', 'monthly_traffic']);
    expect(firstStepWithError(errors)).toBe(2);
    expect(firstStepWithError({})).toBeNull();
  });
});

describe('multipart bodies', () => {
  it('builds the create body with comma-joined monetization and the screenshots', () => {
    const shot = png('home.png', 10);
    const form = buildCreateFormData({ ...filled(), key_metrics: '  ' }, [shot]);
    expect(form.get('title')).toBe('Profitable recipe blog');
    expect(form.get('monetization_methods')).toBe('AdSense,Affiliate Marketing');
    expect(form.get('listing_type')).toBe('auction');
    expect(form.get('duration_days')).toBe('7');
    expect(form.get('reserve_price')).toBe('25000');
    expect(form.has('key_metrics')).toBe(false);
    expect(form.getAll('screenshots')).toHaveLength(1);
    expect((form.get('screenshots') as File).name).toBe('home.png');
  });

  it('leaves reserve and buy-now out of fixed-price listings', () => {
    const form = buildCreateFormData({ ...filled(), listing_type: 'fixed', auction_type: 'manual' }, []);
    expect(form.has('reserve_price')).toBe(false);
    expect(form.has('buy_now_price')).toBe(false);
    expect(form.get('auction_type')).toBe('auto');
    expect(form.getAll('screenshots')).toEqual([]);
  });

  it('builds the update body with repeated methods, kept screenshots and an owner status only', () => {
    const form = buildUpdateFormData(filled(), {
      status: 'paused',
      keptScreenshots: ['/api/uploads/a.png', '/api/uploads/b.webp'],
      newScreenshots: [png('new.png', 5)],
    });
    expect(form.getAll('monetization_methods')).toEqual(['AdSense', 'Affiliate Marketing']);
    expect(form.getAll('existing_screenshots')).toEqual(['/api/uploads/a.png', '/api/uploads/b.webp']);
    expect(form.get('status')).toBe('paused');
    expect(form.getAll('screenshots')).toHaveLength(1);
    const pending = buildUpdateFormData(filled(), { status: 'pending', keptScreenshots: [], newScreenshots: [] });
    expect(pending.has('status')).toBe(false);
    // None kept is said, not left out: the server keeps whatever a field left out names (ADR 0036).
    expect(pending.getAll('existing_screenshots')).toEqual(['']);
  });

  it('sends the fields the seller emptied as empty, so the edit clears them rather than keeping them (ADR 0036)', () => {
    const form = buildUpdateFormData(
      { ...filled(), reserve_price: '', monthly_expenses: '', key_metrics: '', monetization_methods: [] },
      { status: 'active', keptScreenshots: ['/api/uploads/a.png'], newScreenshots: [] },
    );
    expect(form.get('reserve_price')).toBe('');
    expect(form.get('monthly_expenses')).toBe('');
    expect(form.get('key_metrics')).toBe('');
    expect(form.getAll('monetization_methods')).toEqual(['']);
    expect(form.get('buy_now_price')).toBe('40000');
  });
});

describe('listingErrorText (SPEC §8)', () => {
  it('shows a string detail as is', () => {
    expect(listingErrorText({ detail: 'File too large' }, 'Error creating listing')).toBe('File too large');
  });
  it('joins a validation list as location: message', () => {
    const body = {
      detail: [
        { loc: ['body', 'title'], msg: 'Title must be at least 5 characters', type: 'too_small' },
        { loc: ['body', 'starting_price'], msg: 'Starting price must be at least $1' },
        { msg: 'Something else' },
      ],
    };
    expect(listingErrorText(body, 'Error creating listing')).toBe(
      'title: Title must be at least 5 characters, starting_price: Starting price must be at least $1, Something else',
    );
    expect(listingErrorText({ detail: [] }, 'Error creating listing')).toBe('Validation error');
  });
  it('falls back to a message or the fallback', () => {
    expect(listingErrorText({ message: 'Gateway timeout' }, 'Error creating listing')).toBe('Gateway timeout');
    expect(listingErrorText(null, 'Error creating listing')).toBe('Error creating listing');
    expect(listingErrorText('<html>', 'Error creating listing')).toBe('Error creating listing');
  });
});

describe('screenshotSelection', () => {
  it('accepts images up to 5 MB and at most 5 in all', () => {
    const { accepted, problems } = screenshotSelection(
      [png('a.png', 100), png('b.svg', 100, 'image/svg+xml'), png('c.jpg', 5 * 1024 * 1024 + 1, 'image/jpeg'), png('d.webp', 10, 'image/webp'), png('e.gif', 10, 'image/gif')],
      3,
    );
    expect(accepted.map((f) => f.name)).toEqual(['a.png', 'd.webp']);
    expect(problems).toEqual([
      'b.svg is not a JPEG, PNG, WebP or GIF image',
      'c.jpg is larger than 5 MB',
      'You can add at most 5 screenshots; e.gif was not added',
    ]);
  });
});

describe('pre-login listing data', () => {
  const store = new Map<string, string>();
  beforeAll(() => {
    (globalThis as { sessionStorage?: unknown }).sessionStorage = {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => store.set(key, value),
      removeItem: (key: string) => store.delete(key),
    };
  });
  afterAll(() => delete (globalThis as { sessionStorage?: unknown }).sessionStorage);

  it('keeps only step 1 under preLoginListingData and hands it back once', () => {
    savePreLoginListing(filled());
    expect(JSON.parse(store.get('preLoginListingData') as string)).toEqual({
      title: 'Profitable recipe blog',
      website_url: 'https://recipes.example.com',
      category: 'Blog',
      description: 'A recipe blog with a loyal audience and steady ad income.',
    });
    expect(takePreLoginListing()?.title).toBe('Profitable recipe blog');
    expect(store.has('preLoginListingData')).toBe(false);
    expect(takePreLoginListing()).toBeNull();
  });
  it('ignores unreadable data', () => {
    store.set('preLoginListingData', '{oops');
    expect(takePreLoginListing()).toBeNull();
  });
});

describe('listingToForm', () => {
  it('turns a listing into form text, with blanks for missing prices', () => {
    const listing = {
      title: 'T',
      website_url: 'https://x.example.com',
      category: 'SaaS',
      description: 'D',
      monthly_revenue: 10,
      annual_revenue: 120,
      monthly_traffic: 5,
      monthly_expenses: 1,
      profit_margin: 12.5,
      business_age_months: 3,
      monetization_methods: ['Other'],
      listing_type: 'auction',
      auction_type: 'manual',
      starting_price: 50,
      reserve_price: null,
      buy_now_price: 90,
      duration_days: 14,
      key_metrics: null,
      growth_opportunities: 'More',
      included_assets: null,
      reason_for_selling: null,
    } as unknown as ListingDto;
    const form = listingToForm(listing);
    expect(form).toMatchObject({ monthly_revenue: '10', profit_margin: '12.5', reserve_price: '', buy_now_price: '90', duration_days: '14', key_metrics: '', growth_opportunities: 'More' });
  });
});
