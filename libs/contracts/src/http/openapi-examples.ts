import type { JsonSchema, SchemaComponents } from './openapi-components';

// Every request and answer of the document carries an example (ADR 0079). A schema's own `examples` (set with
// `.meta({ examples })` on the named schemas that matter: a listing, a bid, an invoice) win; the rest is built from
// the schema, with values a reader recognises for the usual field names. The contracts spec parses every example with
// its route's zod schema, so an example cannot drift from what the API takes and answers.

const WHEN = '2026-12-01T14:30:00.000Z';

/** Values for fields known by name, tried before anything is derived from the type. */
const BY_NAME: Record<string, unknown> = {
  title: 'Recipe blog with 40k monthly visitors',
  website_title: 'Recipe blog with 40k monthly visitors',
  listing_title: 'Recipe blog with 40k monthly visitors',
  website_url: 'https://recipes.example',
  url: 'https://recipes.example',
  return_url: 'https://market.example/dashboard?tab=invoices',
  username: 'jane_doe',
  seller_username: 'jane_doe',
  buyer_username: 'sam_lee',
  login: 'jane_doe',
  email: 'jane@example.com',
  new_email: 'jane.doe@example.com',
  first_name: 'Jane',
  last_name: 'Doe',
  name: 'Jane Doe',
  full_name: 'Jane Doe',
  customer_name: 'Sam Lee',
  password: 'correct-horse-battery',
  current_password: 'correct-horse-battery',
  new_password: 'staple-lantern-meadow',
  message: 'Done',
  subject: 'Question about the traffic sources',
  content: 'Hello, could you share the last six months of analytics?',
  body: 'Hello, could you share the last six months of analytics?',
  reason: 'The buyer and I agreed to cancel the sale.',
  description: 'A food blog with 320 recipes, ranking for long-tail searches, monetised with display ads.',
  invoice_number: 'INV-2026-000042',
  transaction_id: 'INV-2026-000042',
  currency: 'usd',
  token: 'tok_4f9b2c7e1a3d',
  access_token: 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJqYW5lX2RvZSJ9.c2lnbmF0dXJl',
  client_secret: 'pi_3Qx_secret_8fKe',
  provider: 'sandbox',
  publishable_key: null,
  page: 1,
  limit: 20,
  per_page: 20,
  pages: 1,
  total: 1,
  count: 1,
  amount: 25000,
  max_amount: 30000,
  price: 25000,
  current_bid: 25000,
  starting_price: 10000,
  reserve_price: 20000,
  buy_now_price: 40000,
  asking_price: 25000,
  total_amount: 25000,
  gross: 25000,
  fee: 1250,
  net: 23750,
  monthly_revenue: 1800,
  monthly_profit: 1200,
  monthly_traffic: 40000,
  success_fee_percent: 5,
  // The free-text statuses are the payment provider's (an enum's example is its first value).
  status: 'requires_payment_method',
  payment_status: 'succeeded',
  invoice_status: 'pending',
  status_label: 'Awaiting payment',
  annual_revenue: 21600,
  monthly_expenses: 600,
  profit_margin: 66.7,
  business_age_months: 38,
  duration_days: 7,
  category: 'Blog',
  rating: 4.8,
  bidder_name: 'sam_lee',
  screenshots: '/api/uploads/0c9d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f.webp',
  monetization_methods: 'Display ads',
  key_metrics: 'Organic search brings 82% of visits; 6,400 newsletter subscribers.',
  growth_opportunities: 'A paid meal-plan membership; the video recipes are not on YouTube yet.',
  included_assets: 'The domain, the WordPress site and its 320 recipes, the newsletter list and the social accounts.',
  reason_for_selling: 'I am moving on to a new project.',
  reason_label: 'The site was not transferred',
  resolution_note: 'The registrar confirms the transfer completed on 1 December: releasing to the seller.',
  // By parent and field: the other party of a sale or a message is someone else.
  'buyer.username': 'sam_lee',
  'sender.username': 'sam_lee',
  'dispute.message': 'The domain was never moved to my registrar account, and the seller stopped answering.',
};

/** The hint for a field: by its parent and name first (buyer.username), then by name. */
function hintFor(path: string, name: string): unknown {
  const parent = path.split('.').slice(-2, -1)[0]?.replace(/\[\d+\]$/, '');
  const qualified = parent ? `${parent}.${name}` : '';
  return qualified in BY_NAME ? BY_NAME[qualified] : BY_NAME[name];
}

/** A deterministic version-4 UUID for a field path, so examples stay the same from one build to the next. */
function uuidFor(path: string): string {
  let hex = '';
  for (let round = 0; hex.length < 32; round += 1) {
    let hash = (2166136261 ^ round) >>> 0;
    for (const char of path) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
    hex += hash.toString(16).padStart(8, '0');
  }
  const digits = hex.split('');
  digits[12] = '4';
  digits[16] = 'a';
  const h = digits.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

const fits = (value: number, schema: JsonSchema) =>
  (typeof schema.minimum !== 'number' || value >= schema.minimum) &&
  (typeof schema.maximum !== 'number' || value <= schema.maximum) &&
  (typeof schema.exclusiveMinimum !== 'number' || value > schema.exclusiveMinimum) &&
  (typeof schema.exclusiveMaximum !== 'number' || value < schema.exclusiveMaximum);

function numberFor(schema: JsonSchema, name: string, path: string, integer: boolean): number {
  const hinted = hintFor(path, name);
  if (typeof hinted === 'number' && fits(hinted, schema) && (!integer || Number.isInteger(hinted))) return hinted;
  for (const candidate of [1, 0, typeof schema.minimum === 'number' ? schema.minimum : NaN, typeof schema.maximum === 'number' ? schema.maximum : NaN]) {
    if (Number.isFinite(candidate) && fits(candidate, schema)) return candidate;
  }
  return typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1;
}

function stringFor(schema: JsonSchema, name: string, path: string): string {
  switch (schema.format) {
    case 'uuid':
      return uuidFor(path);
    case 'date-time':
      return WHEN;
    case 'date':
      return WHEN.slice(0, 10);
    case 'email':
      return typeof BY_NAME[name] === 'string' && String(BY_NAME[name]).includes('@') ? (BY_NAME[name] as string) : 'jane@example.com';
    case 'uri':
    case 'url':
      return 'https://recipes.example';
  }
  const hinted = hintFor(path, name);
  let text = typeof hinted === 'string' ? hinted : name ? name.replace(/_/g, ' ') : 'text';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  while (text.length < min) text = `${text} ${text}`;
  return text.slice(0, max);
}

/** An example value of a JSON Schema, named schemas resolved through the components. */
export function exampleOf(schema: JsonSchema | undefined, components: SchemaComponents, name = '', path = name, depth = 0): unknown {
  if (!schema || depth > 16) return null;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (typeof schema.$ref === 'string') return exampleOf(components.resolve(schema.$ref), components, name, path, depth + 1);
  const options = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(options)) {
    // A known value for the name (publishable_key: null) picks its branch; else the first branch that is not null.
    if (name in BY_NAME && BY_NAME[name] === null && options.some((option) => option.type === 'null')) return null;
    const chosen = options.find((option) => option.type !== 'null') ?? options[0];
    return exampleOf(chosen, components, name, path, depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...(schema.allOf as JsonSchema[]).map((part) => exampleOf(part, components, name, path, depth + 1)));
  }
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((item) => item !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, exampleOf(property, components, key, `${path}.${key}`, depth + 1)]));
    }
    case 'array': {
      const count = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1);
      const items = schema.items as JsonSchema | undefined;
      return Array.from({ length: count }, (_, index) => exampleOf(items, components, name, `${path}[${index}]`, depth + 1));
    }
    case 'integer':
      return numberFor(schema, name, path, true);
    case 'number':
      return numberFor(schema, name, path, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      return stringFor(schema, name, path);
    default:
      return null;
  }
}
