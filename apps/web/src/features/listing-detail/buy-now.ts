import type { BuyNowResponse } from '@market/contracts';
import { formatDollars } from '@market/domain';
import { errorDetail } from '../../lib/error-detail';

/** The buy-now texts of SPEC §8. */
export const BUY_NOW_FAILED = 'Error processing purchase. Please try again.';
export const PAYMENT_SETUP_FAILED = 'Purchase successful, but payment setup failed. Please check Dashboard → Invoices or contact support.';
/** SPEC §9: the fallback goes to the invoice after 2 s. */
export const FALLBACK_REDIRECT_MS = 2000;

/** Where the buyer pays an invoice from the dashboard (SPEC §2: /dashboard?tab=invoices&pay={invoiceId}). */
export function invoicePayPath(invoiceId: string): string {
  return `/dashboard?tab=invoices&pay=${encodeURIComponent(invoiceId)}`;
}

/** The four outcomes of SPEC §4, and a refusal. */
export type BuyNowOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'invoice'; text: string; to: string }
  | { kind: 'setup_failed'; text: string }
  | { kind: 'success'; text: string; to: string | null }
  | { kind: 'error'; text: string };

/** A checkout address the page may go to: http(s) only, relative ones read against the site. */
export function safeCheckoutUrl(url: string | undefined | null, origin: string): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url, origin);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * Reads the buy-now answer (SPEC §4): go to the checkout; or pay the invoice from the dashboard; or the sale stands
 * but its payment could not be prepared; or plain success. A checkout address that cannot be followed counts as a
 * payment that could not be prepared.
 */
export function buyNowOutcome(response: BuyNowResponse, origin: string): BuyNowOutcome {
  const checkout = response.redirect_to_payment ? safeCheckoutUrl(response.payment?.checkout_url, origin) : null;
  if (checkout) return { kind: 'redirect', url: checkout };
  if (response.fallback_payment_required && response.invoice) {
    return { kind: 'invoice', text: response.message || 'Purchase successful!', to: invoicePayPath(response.invoice.id) };
  }
  if (response.payment_setup_failed || response.redirect_to_payment) return { kind: 'setup_failed', text: PAYMENT_SETUP_FAILED };
  return { kind: 'success', text: response.message || 'Purchase successful!', to: response.invoice ? invoicePayPath(response.invoice.id) : null };
}

/** Sends the purchase and reads its answer; a refusal is the server's detail or the SPEC §8 text. */
export async function performBuyNow(deps: { send: () => Promise<BuyNowResponse>; origin: string }): Promise<BuyNowOutcome> {
  try {
    return buyNowOutcome(await deps.send(), deps.origin);
  } catch (failure) {
    return { kind: 'error', text: errorDetail(failure, BUY_NOW_FAILED) };
  }
}

/** The confirmation's question: it names the listing and the price, because buying cannot be undone. */
export function buyNowQuestion(title: string, price: number): string {
  return `Buy "${title}" now for ${formatDollars(price)}?`;
}
