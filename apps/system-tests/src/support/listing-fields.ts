/** A listing's create-form fields, as a seller fills them (SPEC §5), for system tests that list a site. */
export const LISTING_FIELDS = {
  title: 'Vegan recipes blog with loyal readers',
  description: 'A plant based cooking blog with two hundred tested recipes and a weekly newsletter.',
  category: 'Blog',
  website_url: 'https://vegan-recipes.example.com',
  monthly_revenue: 1500,
  annual_revenue: 18000,
  monthly_traffic: 42000,
  monthly_expenses: 300,
  profit_margin: 80,
  business_age_months: 30,
  monetization_methods: 'AdSense, Affiliate Marketing',
  listing_type: 'auction',
  starting_price: 9000,
  reserve_price: 15000,
  duration_days: 7,
};
