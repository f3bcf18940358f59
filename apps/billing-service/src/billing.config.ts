import { z } from 'zod';
import { parseEnv, serviceEnv, type ServiceConfig } from '@market/server-kit';

/** Variables the billing service reads; parsed once at start. */
export const billingEnv = {
  ...serviceEnv,
  // How often each replica marks unpaid invoices past their due date overdue (D10).
  INVOICE_SWEEP_MS: z.coerce.number().int().min(200).max(3_600_000).default(60_000),
  // How long a buy-now waits for its invoice (made from bid.accepted) before answering payment_setup_failed; kept
  // under the gateway's RPC_TIMEOUT_MS (5 s) so the buyer gets that answer rather than a 503.
  BUY_NOW_INVOICE_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(3_000),
};
export type BillingConfig = z.infer<z.ZodObject<typeof billingEnv>>;
export const BILLING_CONFIG = Symbol('BILLING_CONFIG');

/** Defaults when a caller built only the common service config (in-process test stacks). */
export const DEFAULT_INVOICE_SWEEP_MS = 60_000;
export const DEFAULT_BUY_NOW_INVOICE_WAIT_MS = 3_000;

/** Reads the billing service configuration from the environment, exiting with one line on a bad value. */
export function loadBillingConfig(): BillingConfig {
  return parseEnv(billingEnv);
}

/** The full billing config from one that may lack the billing-only values. */
export function withBillingDefaults(config: ServiceConfig & Partial<BillingConfig>): BillingConfig {
  return {
    ...config,
    INVOICE_SWEEP_MS: config.INVOICE_SWEEP_MS ?? DEFAULT_INVOICE_SWEEP_MS,
    BUY_NOW_INVOICE_WAIT_MS: config.BUY_NOW_INVOICE_WAIT_MS ?? DEFAULT_BUY_NOW_INVOICE_WAIT_MS,
  };
}
