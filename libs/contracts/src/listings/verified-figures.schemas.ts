import { z } from 'zod';
import { IsoDateTimeSchema, UuidSchema } from '../common.schemas';

/** The sources a listing's figures can be verified by (D24, ADR 0084): Stripe for revenue, Google Analytics 4 for traffic. */
export const VERIFICATION_SOURCES = ['stripe', 'ga4'] as const;
export type VerificationSource = (typeof VERIFICATION_SOURCES)[number];

/**
 * How current a shown figure is (ADR 0084): `current` while its source is connected and refreshed within two days;
 * `stale` when the refresh has not succeeded since; `revoked` when the provider refused the key or token, so the figure
 * is only what it was when last verified. Only `current` earns the badge.
 */
export const VERIFIED_FIGURE_STATES = ['current', 'stale', 'revoked'] as const;

const figureBase = {
  state: z.enum(VERIFIED_FIGURE_STATES),
  /** The figures came from a stand-in of the provider, not the real one: shown as TEST MODE. */
  test_mode: z.boolean(),
  /** When the shown snapshot was taken. */
  verified_at: IsoDateTimeSchema,
  /** The claim is more than 15% above the verified figure (D24): buyers see both, the admin review flags it. */
  inflated: z.boolean(),
};

/** Verified revenue: 12 complete UTC months of net charges in USD, whole cents (ADR 0084). */
export const VerifiedRevenueSchema = z
  .strictObject({
    ...figureBase,
    /** The mean from the first month with any revenue, rounded down; null when no month had any. */
    monthly_average_cents: z.number().int().nullable(),
    /** The listing's claimed monthly revenue, in cents, for comparison. */
    claimed_cents: z.number().int(),
    months: z.array(z.strictObject({ month: z.string().regex(/^\d{4}-\d{2}$/).meta({ example: '2026-11' }), cents: z.number().int() })),
    /** Charges in another currency: counted apart, never converted. */
    other_currency_charges: z.number().int(),
    /** What Stripe calls the account (its statement descriptor), when it says. */
    account_label: z.string().nullable(),
  })
  .meta({ id: 'VerifiedRevenue' });
export type VerifiedRevenueDto = z.infer<typeof VerifiedRevenueSchema>;

/** Verified traffic: 12 complete UTC months of GA4 users and sessions; the claim is held against sessions (ADR 0084). */
export const VerifiedTrafficSchema = z
  .strictObject({
    ...figureBase,
    monthly_average_sessions: z.number().int().nullable(),
    monthly_average_users: z.number().int().nullable(),
    claimed: z.number().int(),
    months: z.array(z.strictObject({ month: z.string().regex(/^\d{4}-\d{2}$/).meta({ example: '2026-11' }), users: z.number().int(), sessions: z.number().int() })),
    /** The GA4 property the figures are from. */
    property_id: z.string(),
  })
  .meta({ id: 'VerifiedTraffic' });
export type VerifiedTrafficDto = z.infer<typeof VerifiedTrafficSchema>;

/** A listing's verified figures as buyers see them: null for a source never connected (or disconnected). */
export const ListingVerificationSchema = z
  .strictObject({ revenue: VerifiedRevenueSchema.nullable(), traffic: VerifiedTrafficSchema.nullable() })
  .meta({ id: 'ListingVerification' });
export type ListingVerificationDto = z.infer<typeof ListingVerificationSchema>;

/** One source's connection as its seller (or an admin) sees it: never the key or token. */
export const VerificationConnectionSchema = z
  .strictObject({
    source: z.enum(VERIFICATION_SOURCES),
    /** Set up on this marketplace: false when the operator has not configured the provider ("not set up here"). */
    available: z.boolean(),
    test_mode: z.boolean(),
    connection: z
      .strictObject({
        /** active: the last refresh worked; failing: the provider was slow or wrong (the last good figures stay); revoked: the key or token was refused. */
        state: z.enum(['active', 'failing', 'revoked']),
        connected_at: IsoDateTimeSchema,
        account_label: z.string().nullable(),
        property_id: z.string().nullable(),
        last_attempt_at: IsoDateTimeSchema.nullable(),
        last_error: z.string().nullable(),
        verified_at: IsoDateTimeSchema.nullable(),
      })
      .nullable(),
  })
  .meta({ id: 'VerificationConnection' });
export type VerificationConnectionDto = z.infer<typeof VerificationConnectionSchema>;

/** GET /api/listings/{id}/verifications. */
export const VerificationConnectionsSchema = z
  .strictObject({ listing_id: z.uuid(), sources: z.array(VerificationConnectionSchema) })
  .meta({ id: 'VerificationConnections' });
export type VerificationConnectionsDto = z.infer<typeof VerificationConnectionsSchema>;

/**
 * POST /api/listings/{id}/verifications/stripe: a restricted key with Charges: Read (ADR 0084). A secret key is refused:
 * the marketplace never holds a key that can write to a seller's account.
 */
export const ConnectStripeSchema = z
  .strictObject({
    key: z
      .string({ message: 'Paste a restricted key' })
      .trim()
      .max(300, 'That is not a Stripe restricted key')
      .refine((key) => !/^sk_/.test(key), 'That is a secret key: create a restricted key with "Charges: Read" instead, so we can only read')
      .refine((key) => /^rk_(live|test)_[A-Za-z0-9]{10,255}$/.test(key), 'A restricted key starts with rk_live_ or rk_test_')
      .meta({ example: 'rk_test_51HxExampleRestrictedKey0123456789' }),
  })
  .meta({ id: 'ConnectStripeRequest' });
export type ConnectStripe = z.output<typeof ConnectStripeSchema>;

/** POST /api/listings/{id}/verifications/ga4: the GA4 property to read; the answer is where to send the seller to consent. */
export const StartGa4Schema = z
  .strictObject({ property_id: z.string().trim().regex(/^[0-9]{1,20}$/, 'A GA4 property id is a number (Admin → Property settings)').meta({ example: '312456789' }) })
  .meta({ id: 'StartGa4Request' });
export type StartGa4 = z.output<typeof StartGa4Schema>;
export const Ga4ConsentSchema = z.strictObject({ authorize_url: z.string() }).meta({ id: 'Ga4Consent' });
export type Ga4ConsentDto = z.infer<typeof Ga4ConsentSchema>;

/** POST /api/verifications/ga4/callback: what Google sent back to /verify/ga4, forwarded by the seller's browser. */
export const FinishGa4Schema = z
  .strictObject({ code: z.string().min(1).max(2048), state: z.string().min(1).max(2048) })
  .meta({ id: 'FinishGa4Request' });
export type FinishGa4 = z.output<typeof FinishGa4Schema>;

// The bus requests: the gateway adds the listing id, and for GA4 the redirect address it serves (PUBLIC_URL).
export const VerificationsRequestSchema = z.strictObject({ id: UuidSchema });
export const ConnectStripeRequestSchema = z.strictObject({ id: UuidSchema, connect: ConnectStripeSchema });
export const StartGa4RequestSchema = z.strictObject({ id: UuidSchema, start: StartGa4Schema, redirect_uri: z.url() });
export const FinishGa4RequestSchema = z.strictObject({ finish: FinishGa4Schema, redirect_uri: z.url() });
export const DisconnectRequestSchema = z.strictObject({ id: UuidSchema, source: z.enum(VERIFICATION_SOURCES) });
