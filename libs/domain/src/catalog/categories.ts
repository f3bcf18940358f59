/** The one category list (D1). Home tiles and browse filters show the first five. */
export const CATEGORIES = [
  'Blog',
  'E-commerce',
  'SaaS',
  'Content Site',
  'Affiliate Site',
  'Membership Site',
  'Local Business',
  'Newsletter',
] as const;
export type Category = (typeof CATEGORIES)[number];
export const HOME_CATEGORIES: readonly Category[] = CATEGORIES.slice(0, 5);

/** The one monetization list (D2), used by create and edit. */
export const MONETIZATION_METHODS = [
  'AdSense',
  'Affiliate Marketing',
  'Subscriptions',
  'E-commerce',
  'Sponsored Content',
  'Donations',
  'Premium Content',
  'Consulting',
  'Course Sales',
  'Email Marketing',
  'Lead Generation',
  'Other',
] as const;
export type MonetizationMethod = (typeof MONETIZATION_METHODS)[number];
