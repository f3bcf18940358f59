import type { Actor } from '@market/contracts';
import { forbidden, isRealAdmin, notFound } from '@market/server-kit';
import type { InvoiceRecord } from './invoices.repository';

/** Who looks at an invoice: its buyer, its seller, or an admin who is neither (sees the seller's figures). */
export type InvoiceViewer = 'buyer' | 'seller' | 'admin';

type Parties = Pick<InvoiceRecord, 'buyer_id' | 'seller_id'>;

/**
 * How the actor may see an invoice, or null when they may not (then it does not exist for them: 404). The one place
 * billing-service decides who may see or act on an invoice and its payment, transfer and dispute (ADR 0069); an
 * impersonating admin is the member they act as, never an admin (D14).
 */
export function viewerOf(actor: Actor, invoice: Parties): InvoiceViewer | null {
  if (actor.user_id === invoice.buyer_id) return 'buyer';
  if (actor.user_id === invoice.seller_id) return 'seller';
  return isRealAdmin(actor) ? 'admin' : null;
}

/**
 * The invoice and the actor's view of it, once they may see it: refused with 404 when they may not (`invoice` null
 * too: it does not exist), and with 403 `refusal` when `only` names the one party who may do this and they are another.
 */
export function authorizeInvoice<I extends Parties>(
  actor: Actor,
  invoice: I | null,
  only?: { party: 'buyer' | 'seller'; refusal: string },
): { invoice: I; viewer: InvoiceViewer } {
  const viewer = invoice ? viewerOf(actor, invoice) : null;
  if (!invoice || !viewer) throw notFound('Invoice not found');
  if (only && viewer !== only.party) throw forbidden(only.refusal);
  return { invoice, viewer };
}
