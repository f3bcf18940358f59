import { randomBytes } from 'node:crypto';
import { CreateListingSchema, type CreateListing, type CreateListingInput } from '@market/contracts';

/** A valid listing as the create schema outputs it; override any field a test cares about. */
export function buildListing(overrides: Partial<CreateListingInput> = {}): CreateListing {
  const tag = randomBytes(3).toString('hex');
  return CreateListingSchema.parse({
    title: `Site ${tag} for sale`,
    description: `A well kept website ${tag} with loyal readers and steady income every month.`,
    category: 'Blog',
    website_url: `https://site-${tag}.example.com`,
    monthly_revenue: 1000,
    annual_revenue: 12000,
    monthly_traffic: 20000,
    profit_margin: 50,
    business_age_months: 24,
    monetization_methods: ['AdSense'],
    starting_price: 5000,
    ...overrides,
  });
}
