import { z } from 'zod';
import { DEFAULT_INSPECTION_DAYS, isValidFeePercent, MAX_INSPECTION_DAYS } from '@market/domain';

const dollars = (label: string) =>
  z
    .number({ message: `${label} must be a number` })
    .int(`${label} must be whole dollars`)
    .min(0, `${label} cannot be negative`)
    .max(100_000, `${label} cannot exceed $100,000`);

const settingsShape = {
  smtp_host: z.string().trim().max(255),
  smtp_port: z.number({ message: 'SMTP port must be a number' }).int().min(1, 'SMTP port must be 1 to 65535').max(65535, 'SMTP port must be 1 to 65535'),
  smtp_username: z.string().trim().max(255),
  smtp_password: z.string().max(255),
  listing_fee: dollars('Listing fee'),
  success_fee: z
    .number({ message: 'Success fee must be a number' })
    .meta({ description: 'The success fee in percent of the sale price (not money): 0 to 50, at most two decimals' })
    .min(0, 'Success fee cannot be negative')
    .max(50, 'Success fee cannot exceed 50%')
    // The domain's rule, which allows float noise: 2.55 * 100 is 254.99999999999997 but 2.55 is a valid fee.
    .refine(isValidFeePercent, 'Success fee has at most two decimals'),
  featured_fee: dollars('Featured fee'),
  auto_approve: z.boolean(),
  allow_registration: z.boolean(),
  email_notifications: z.boolean(),
  // Soft close (D9); optional so that a client which does not know it leaves the stored value alone.
  anti_sniping_minutes: z
    .number({ message: 'Soft close minutes must be a number' })
    .int('Soft close minutes must be whole minutes')
    .min(0, 'Soft close minutes cannot be negative')
    .max(60, 'Soft close minutes cannot exceed 60')
    .optional(),
  // Only members with a verified email may bid, offer, buy now or list (ADR 0037); optional like the soft close, so a
  // client that does not know it leaves the stored value alone.
  require_verified_email: z.boolean({ message: 'Require verified email must be true or false' }).optional(),
  // Days after the transfer is verified before held funds go to the seller by themselves (D22); optional like the soft
  // close, so a client that does not know it leaves the stored value alone.
  inspection_days: z
    .number({ message: 'Inspection period must be a number' })
    .int('Inspection period must be whole days')
    .min(0, 'Inspection period cannot be negative')
    .max(MAX_INSPECTION_DAYS, `Inspection period cannot exceed ${MAX_INSPECTION_DAYS} days`)
    .optional(),
};

/** Platform settings (SPEC §3), posted whole by the admin Settings tab. An empty smtp_password keeps the stored one. */
export const PlatformSettingsSchema = z.object(settingsShape).strict();
export type PlatformSettings = z.infer<typeof PlatformSettingsSchema>;

/**
 * POST /api/admin/settings (SPEC §7: the full settings object). What GET answered may be posted back as it is: its
 * read-only smtp_password_set is accepted and dropped; any other unknown field is refused.
 */
export const SaveSettingsSchema = z
  .object({ ...settingsShape, smtp_password_set: z.boolean().optional() })
  .strict()
  .transform(({ smtp_password_set: _readOnly, ...settings }): PlatformSettings => settings).meta({ id: 'SaveSettingsRequest' });

/**
 * GET /api/fees: what the marketplace charges, public so every page can say it honestly (ADR 0026), and what it asks
 * of those who commit, so a page says it before anyone tries (ADR 0037).
 */
export const PublicFeesSchema = z.strictObject({
  /** Deducted from the seller's payout on invoices created from now on (D10); 0 means selling is free. */
  success_fee_percent: z.number().min(0).max(50),
  /** Whether bidding, offers, buy-now and listing need a verified email (ADR 0037). */
  verified_email_required: z.boolean(),
  /** Days after the transfer is verified during which the buyer may still dispute, before the funds go to the seller (D22). */
  inspection_days: z.number().int().min(0).max(MAX_INSPECTION_DAYS),
}).meta({ id: 'PublicFees' });
export type PublicFees = z.infer<typeof PublicFeesSchema>;

/** What admins read back: the SMTP password is never sent out (always empty), only whether one is stored. */
export const PlatformSettingsViewSchema = PlatformSettingsSchema.extend({ smtp_password: z.literal(''), smtp_password_set: z.boolean() }).meta({ id: 'PlatformSettingsView' });
export type PlatformSettingsView = z.infer<typeof PlatformSettingsViewSchema>;

/**
 * Settings before an admin saves any (D10: selling is free; D16: review is on; registration open; D9: 10-minute soft
 * close; ADR 0037: committing needs a verified email).
 */
export const DEFAULT_SETTINGS: PlatformSettings = {
  smtp_host: '',
  smtp_port: 587,
  smtp_username: '',
  smtp_password: '',
  listing_fee: 0,
  success_fee: 0,
  featured_fee: 0,
  auto_approve: false,
  allow_registration: true,
  email_notifications: true,
  anti_sniping_minutes: 10,
  require_verified_email: true,
  inspection_days: DEFAULT_INSPECTION_DAYS,
};

/** Core NATS subject (after NATS_SUBJECT_PREFIX) on which admin-service announces a settings change. */
export const SETTINGS_CHANGED_SUBJECT = 'settings.changed';
