import { CreateListingSchema, ListingFieldsSchema, type ListingDto } from '@market/contracts';
import { DEFAULT_DURATION_DAYS, MAX_SCREENSHOTS, OWNER_STATUSES } from '@market/domain';
import { bodyDetail } from './error-detail';
import { STORAGE_KEYS } from './storage-keys';

/** The sell and edit forms as the inputs hold them: text for every field, a list for the monetization checkboxes. */
export interface ListingFormValues {
  title: string;
  website_url: string;
  category: string;
  description: string;
  monthly_revenue: string;
  annual_revenue: string;
  monthly_traffic: string;
  monthly_expenses: string;
  profit_margin: string;
  business_age_months: string;
  monetization_methods: string[];
  listing_type: 'auction' | 'fixed';
  auction_type: 'auto' | 'manual';
  starting_price: string;
  reserve_price: string;
  buy_now_price: string;
  duration_days: string;
  key_metrics: string;
  growth_opportunities: string;
  included_assets: string;
  reason_for_selling: string;
}

export type ListingField = keyof ListingFormValues;
export type FieldErrors = Partial<Record<ListingField, string>>;

/** A new listing: auction, auto-accepting, 7 days (SPEC §5). */
export function emptyListingForm(): ListingFormValues {
  return {
    title: '',
    website_url: '',
    category: '',
    description: '',
    monthly_revenue: '',
    annual_revenue: '',
    monthly_traffic: '',
    monthly_expenses: '',
    profit_margin: '',
    business_age_months: '',
    monetization_methods: [],
    listing_type: 'auction',
    auction_type: 'auto',
    starting_price: '',
    reserve_price: '',
    buy_now_price: '',
    duration_days: String(DEFAULT_DURATION_DAYS),
    key_metrics: '',
    growth_opportunities: '',
    included_assets: '',
    reason_for_selling: '',
  };
}

const text = (value: string | null | undefined) => value ?? '';

/** The edit form's starting values, from the listing as the API returns it. */
export function listingToForm(listing: ListingDto): ListingFormValues {
  return {
    title: listing.title,
    website_url: listing.website_url,
    category: listing.category,
    description: listing.description,
    monthly_revenue: String(listing.monthly_revenue),
    annual_revenue: String(listing.annual_revenue),
    monthly_traffic: String(listing.monthly_traffic),
    monthly_expenses: String(listing.monthly_expenses ?? ''),
    profit_margin: String(listing.profit_margin),
    business_age_months: String(listing.business_age_months),
    monetization_methods: [...listing.monetization_methods],
    listing_type: listing.listing_type,
    auction_type: listing.auction_type,
    starting_price: String(listing.starting_price),
    reserve_price: listing.reserve_price === undefined || listing.reserve_price === null ? '' : String(listing.reserve_price),
    buy_now_price: listing.buy_now_price === null ? '' : String(listing.buy_now_price),
    duration_days: String(listing.duration_days),
    key_metrics: text(listing.key_metrics),
    growth_opportunities: text(listing.growth_opportunities),
    included_assets: text(listing.included_assets),
    reason_for_selling: text(listing.reason_for_selling),
  };
}

/** What each field is called on screen; validation messages for blank required fields use it. */
export const FIELD_LABELS: Record<ListingField, string> = {
  title: 'Title',
  website_url: 'Website URL',
  category: 'Category',
  description: 'Description',
  monthly_revenue: 'Monthly revenue',
  annual_revenue: 'Annual revenue',
  monthly_traffic: 'Monthly traffic',
  monthly_expenses: 'Monthly expenses',
  profit_margin: 'Profit margin',
  business_age_months: 'Business age',
  monetization_methods: 'Monetization methods',
  listing_type: 'Listing type',
  auction_type: 'Auction type',
  starting_price: 'Starting price',
  reserve_price: 'Reserve price',
  buy_now_price: 'Buy now price',
  duration_days: 'Duration',
  key_metrics: 'Key metrics',
  growth_opportunities: 'Growth opportunities',
  included_assets: 'Included assets',
  reason_for_selling: 'Reason for selling',
};

/** The wizard's five steps (SPEC §2) and the fields each one checks before Next. */
export const SELL_STEPS = [
  { title: 'Basic Info', fields: ['title', 'website_url', 'category', 'description'] },
  {
    title: 'Financials',
    fields: ['monthly_revenue', 'annual_revenue', 'monthly_traffic', 'monthly_expenses', 'profit_margin', 'business_age_months', 'monetization_methods'],
  },
  {
    title: 'Pricing',
    fields: [
      'listing_type',
      'auction_type',
      'starting_price',
      'reserve_price',
      'buy_now_price',
      'duration_days',
      'key_metrics',
      'growth_opportunities',
      'included_assets',
      'reason_for_selling',
    ],
  },
  { title: 'Media Upload', fields: [] },
  { title: 'Review', fields: [] },
] as const satisfies readonly { title: string; fields: readonly ListingField[] }[];

export const SELL_STEP_COUNT = SELL_STEPS.length;

// Multipart turns '' into "not given" and Number('') into 0, so blank required numbers are caught here first.
const REQUIRED: readonly ListingField[] = [
  'title',
  'website_url',
  'category',
  'description',
  'monthly_revenue',
  'annual_revenue',
  'monthly_traffic',
  'profit_margin',
  'business_age_months',
  'starting_price',
];

/** The values as the API reads them; reserve and buy-now go only with auctions. */
export function toListingPayload(values: ListingFormValues): Record<string, unknown> {
  const auction = values.listing_type === 'auction';
  return {
    ...values,
    auction_type: auction ? values.auction_type : 'auto',
    reserve_price: auction ? values.reserve_price : '',
    buy_now_price: auction ? values.buy_now_price : '',
  };
}

function issuesToErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[], only?: readonly ListingField[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path[0] as ListingField | undefined;
    if (!field || (only && !only.includes(field)) || errors[field]) continue;
    errors[field] = issue.message;
  }
  return errors;
}

function requiredErrors(values: ListingFormValues, fields: readonly ListingField[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of fields) {
    const value = values[field];
    if (REQUIRED.includes(field) && typeof value === 'string' && value.trim() === '') {
      errors[field] = field === 'category' ? 'Choose a category' : `${FIELD_LABELS[field]} is required`;
    }
  }
  return errors;
}

/**
 * Checks some fields with the shared zod rules the server uses (ListingFieldsSchema, plus the auction pricing rules
 * once pricing fields are among them). Returns a message per failing field; empty when all pass.
 */
export function validateListingFields(values: ListingFormValues, fields: readonly ListingField[]): FieldErrors {
  if (fields.length === 0) return {};
  const payload = toListingPayload(values);
  const mask = Object.fromEntries(fields.map((field) => [field, true])) as Record<ListingField, true>;
  const picked = ListingFieldsSchema.pick(mask).safeParse(payload);
  const errors: FieldErrors = picked.success ? {} : issuesToErrors(picked.error.issues, fields);
  if (fields.includes('starting_price')) {
    // The cross-field rules (reserve, buy-now) need the whole listing; only their own fields are reported here.
    const whole = CreateListingSchema.safeParse(payload);
    if (!whole.success) Object.assign(errors, { ...issuesToErrors(whole.error.issues, ['reserve_price', 'buy_now_price']), ...errors });
  }
  return { ...errors, ...requiredErrors(values, fields) };
}

/** Every field at once, as at submit. */
export function validateListing(values: ListingFormValues): FieldErrors {
  const all = Object.keys(FIELD_LABELS) as ListingField[];
  return validateListingFields(values, all);
}

/** The first wizard step (1-based) holding one of the failing fields; null when none does. */
export function firstStepWithError(errors: FieldErrors): number | null {
  const index = SELL_STEPS.findIndex((step) => (step.fields as readonly ListingField[]).some((field) => errors[field]));
  return index === -1 ? null : index + 1;
}

const SENT_FIELDS: readonly ListingField[] = (Object.keys(FIELD_LABELS) as ListingField[]).filter((f) => f !== 'monetization_methods');

/** Appends the text fields; blanks are left out (create), or sent empty (edit: a field sent empty is cleared, ADR 0036). */
function appendFields(form: FormData, values: ListingFormValues, blanks: 'omit' | 'send' = 'omit') {
  const payload = toListingPayload(values);
  for (const field of SENT_FIELDS) {
    const value = String(payload[field] ?? '').trim();
    if (value !== '' || blanks === 'send') form.append(field, value);
  }
}

/** POST /api/listings body (SPEC §7): every field, monetization_methods comma-joined, files as `screenshots`. */
export function buildCreateFormData(values: ListingFormValues, screenshots: readonly File[]): FormData {
  const form = new FormData();
  appendFields(form, values);
  form.append('monetization_methods', values.monetization_methods.join(','));
  for (const file of screenshots) form.append('screenshots', file, file.name);
  return form;
}

/**
 * PATCH /api/listings/{id} body (SPEC §7): every field, repeated monetization_methods and existing_screenshots (the
 * kept paths), new files as `screenshots`; status only when it is one the owner may ask for. The server keeps a field
 * left out as it is (ADR 0036), so a field the seller emptied is sent empty: an empty field, no methods or no kept
 * screenshots clear what was there.
 */
export function buildUpdateFormData(
  values: ListingFormValues,
  options: { status: string; keptScreenshots: readonly string[]; newScreenshots: readonly File[] },
): FormData {
  const form = new FormData();
  appendFields(form, values, 'send');
  if (values.monetization_methods.length === 0) form.append('monetization_methods', '');
  for (const method of values.monetization_methods) form.append('monetization_methods', method);
  if ((OWNER_STATUSES as readonly string[]).includes(options.status)) form.append('status', options.status);
  if (options.keptScreenshots.length === 0) form.append('existing_screenshots', '');
  for (const path of options.keptScreenshots) form.append('existing_screenshots', path);
  for (const file of options.newScreenshots) form.append('screenshots', file, file.name);
  return form;
}

/**
 * A failed create/edit as text (SPEC §8): a string detail as is; a detail list joined with commas as
 * 'location: message' (location = the field name), an empty one as 'Validation error'; otherwise the body's message
 * or the fallback.
 */
export function listingErrorText(body: unknown, fallback: string): string {
  const { detail, message } = (body ?? {}) as { detail?: unknown; message?: unknown };
  if (Array.isArray(detail) && detail.length === 0) return 'Validation error';
  return bodyDetail(body, typeof message === 'string' && message.trim() ? message : fallback, { withLocation: true });
}

export const MAX_SCREENSHOT_BYTES = 5 * 1024 * 1024;
export const SCREENSHOT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;

/**
 * Which picked files may be added next to `alreadyChosen` screenshots: images of the four types up to 5 MB, at most
 * MAX_SCREENSHOTS in all. Returns the accepted files and a message per refusal.
 */
export function screenshotSelection(picked: readonly File[], alreadyChosen: number): { accepted: File[]; problems: string[] } {
  const accepted: File[] = [];
  const problems: string[] = [];
  for (const file of picked) {
    if (!(SCREENSHOT_TYPES as readonly string[]).includes(file.type)) {
      problems.push(`${file.name} is not a JPEG, PNG, WebP or GIF image`);
    } else if (file.size > MAX_SCREENSHOT_BYTES) {
      problems.push(`${file.name} is larger than 5 MB`);
    } else if (alreadyChosen + accepted.length >= MAX_SCREENSHOTS) {
      problems.push(`You can add at most ${MAX_SCREENSHOTS} screenshots; ${file.name} was not added`);
    } else {
      accepted.push(file);
    }
  }
  return { accepted, problems };
}

const PRE_LOGIN_FIELDS = ['title', 'website_url', 'category', 'description'] as const;
export type PreLoginListing = Pick<ListingFormValues, (typeof PRE_LOGIN_FIELDS)[number]>;

/** Keeps a guest's step 1 for after login (sessionStorage preLoginListingData, SPEC §2). */
export function savePreLoginListing(values: ListingFormValues): void {
  const data = Object.fromEntries(PRE_LOGIN_FIELDS.map((field) => [field, values[field]]));
  sessionStorage.setItem(STORAGE_KEYS.preLoginListingData, JSON.stringify(data));
}

/** Reads and forgets the guest's saved step 1; null when there is none (or it is unreadable). */
export function takePreLoginListing(): PreLoginListing | null {
  let raw: string | null;
  try {
    raw = sessionStorage.getItem(STORAGE_KEYS.preLoginListingData);
    sessionStorage.removeItem(STORAGE_KEYS.preLoginListingData);
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Record<string, unknown>;
    return Object.fromEntries(PRE_LOGIN_FIELDS.map((field) => [field, typeof parsed[field] === 'string' ? parsed[field] : ''])) as PreLoginListing;
  } catch {
    return null;
  }
}
