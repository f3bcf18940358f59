import { PlatformSettingsSchema, type PlatformSettings, type PlatformSettingsView } from '@market/contracts';
import { DEFAULT_INSPECTION_DAYS } from '@market/domain';

/** The number fields, kept as typed until the form is saved. */
type NumberKey = 'smtp_port' | 'listing_fee' | 'success_fee' | 'featured_fee' | 'anti_sniping_minutes' | 'inspection_days';

/** The Settings tab's form: the settings with every number as typed text and the optional toggles made definite. */
export type SettingsForm = Omit<PlatformSettings, NumberKey | 'require_verified_email'> & { require_verified_email: boolean } & Record<NumberKey, string>;

/**
 * The form of the settings GET answered. The optional ones (soft close, verified email, inspection period) fall back
 * to their defaults when a server does not send them, so posting the form back keeps what is stored.
 */
export function toSettingsForm(s: PlatformSettingsView): SettingsForm {
  return {
    smtp_host: s.smtp_host,
    smtp_port: String(s.smtp_port),
    smtp_username: s.smtp_username,
    smtp_password: '',
    listing_fee: String(s.listing_fee),
    success_fee: String(s.success_fee),
    featured_fee: String(s.featured_fee),
    auto_approve: s.auto_approve,
    allow_registration: s.allow_registration,
    email_notifications: s.email_notifications,
    anti_sniping_minutes: String(s.anti_sniping_minutes ?? 10),
    require_verified_email: s.require_verified_email ?? true,
    inspection_days: String(s.inspection_days ?? DEFAULT_INSPECTION_DAYS),
  };
}

/** A typed number; an empty field is NaN, so the schema says it must be a number instead of saving 0. */
const num = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));

/** The form as the settings to post, or the first problem in the schema's words (SPEC §8: "Error saving settings"). */
export function parseSettingsForm(form: SettingsForm): { ok: true; settings: PlatformSettings } | { ok: false; error: string } {
  const parsed = PlatformSettingsSchema.safeParse({
    ...form,
    smtp_port: num(form.smtp_port),
    listing_fee: num(form.listing_fee),
    success_fee: num(form.success_fee),
    featured_fee: num(form.featured_fee),
    anti_sniping_minutes: num(form.anti_sniping_minutes),
    inspection_days: num(form.inspection_days),
  });
  return parsed.success ? { ok: true, settings: parsed.data } : { ok: false, error: parsed.error.issues[0].message };
}
