import { z } from 'zod';
import { parseEnv, portSchema, secretSchema, serviceEnv, urlSchema } from '@market/server-kit';

/** Variables the notifications service reads; parsed once at start. */
export const notificationsEnv = {
  ...serviceEnv,
  PUBLIC_URL: urlSchema(['http:', 'https:']).default('http://localhost:3000'),
  SMTP_HOST: z.string().min(1).optional(),
  SMTP_PORT: portSchema.default(587),
  SMTP_USERNAME: z.string().optional(),
  // No placeholder, 12+ characters (ADR 0031).
  SMTP_PASSWORD: secretSchema('SMTP_PASSWORD').optional(),
  SMTP_SECURE: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  MAIL_FROM: z.string().min(3).default('Site Market <no-reply@sitemarket.local>'),
  /** Where contact-form messages are mailed (D19). */
  SUPPORT_EMAIL: z.email().default('support@sitemarket.local'),
  /** The least time between two outbid emails to one person about one listing (ADR 0056); `0` mails every outbid. */
  OUTBID_EMAIL_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(600_000),
  /** How long a seller's digest of new bids on a listing gathers bids before it is mailed (ADR 0056). */
  SELLER_BID_DIGEST_INTERVAL_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(600_000),
  /** At most one alert email per saved search in this window (ADR 0074): a day; shorter only in tests. */
  SEARCH_ALERT_INTERVAL_MS: z.coerce.number().int().min(1_000).max(7 * 86_400_000).default(86_400_000),
  /** `production` keeps one-time tokens out of the log even when emails are written there (ADR 0031). */
  NODE_ENV: z.string().default('development'),
};
export type NotificationsConfig = z.infer<z.ZodObject<typeof notificationsEnv>>;
export const NOTIFICATIONS_CONFIG = Symbol('NOTIFICATIONS_CONFIG');

/** Reads the notifications service configuration, exiting with one line on a bad value. */
export function loadNotificationsConfig(): NotificationsConfig {
  return parseEnv(notificationsEnv);
}
