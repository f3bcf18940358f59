import { z } from 'zod';

/** The card provider billing runs (D12); chosen once at start by PAYMENTS_PROVIDER (ADR 0033). */
export const PaymentProviderNameSchema = z.enum(['sandbox', 'stripe']);
export type PaymentProviderName = z.infer<typeof PaymentProviderNameSchema>;

/** billing.payments.mode: which provider runs, and whether that means no real money moves (the sandbox). */
export const PaymentsModeSchema = z.strictObject({
  provider: PaymentProviderNameSchema,
  test_mode: z.boolean(),
});
export type PaymentsMode = z.infer<typeof PaymentsModeSchema>;

/** GET /api/site: what every page needs to know about this deployment (ADR 0033). */
export const SiteInfoSchema = z.strictObject({ payments: PaymentsModeSchema }).meta({ id: 'SiteInfo' });
export type SiteInfo = z.infer<typeof SiteInfoSchema>;

/** The one sentence every test-mode surface says (banner, invoice, PDF, payment emails; ADR 0033). */
export const TEST_MODE_NOTICE = 'TEST MODE: payments on this site go through a sandbox. No real money moved.';
