import type { InvoiceDto } from '@market/contracts';
import { fundsHeld, type InvoiceState } from '@market/domain';
import { formatInvoiceDate, sellerFigures } from './invoices';

type EscrowInvoice = Pick<InvoiceDto, 'role' | 'status' | 'escrow' | 'total_amount' | 'success_fee_percent' | 'success_fee' | 'payout'>;

/**
 * What a row says of the money in escrow (D22), to the party reading it: held by the platform once captured, when it
 * goes to the seller by itself (transfer verified plus the inspection period), and, for the seller, the payout's
 * status with a way to set up payouts while it waits for their account.
 */
export interface EscrowView {
  lines: string[];
  /** The seller's payout status (its badge), once the funds were released. */
  payoutStatus: string | null;
  /** "Set up payouts to receive $X" while the payout waits for the seller's account. */
  setupPrompt: string | null;
}

/** The escrow note of an invoice row, or null when there is nothing to say (no funds held, nothing released). */
export function escrowView(invoice: EscrowInvoice, locale?: string): EscrowView | null {
  const { escrow } = invoice;
  const held = fundsHeld(invoice.status as InvoiceState);
  const seller = invoice.role === 'seller';
  if (escrow.payout_status) {
    // The buyer's side of the row already says the funds went to the seller; the payout itself is the seller's business.
    if (!seller) return null;
    const setupPrompt = escrow.payout_status === 'waiting_for_account' ? `Set up payouts to receive ${sellerFigures(invoice).payout}` : null;
    return { lines: [], payoutStatus: escrow.payout_status, setupPrompt };
  }
  if (!held) return null;
  const lines: string[] = [];
  if (escrow.captured_at) lines.push(seller ? "The buyer's payment is held in escrow by Site Market." : 'Your payment is held in escrow by Site Market.');
  // While disputed the dispute decides, and its panel says so.
  if (escrow.release_due_at && invoice.status !== 'disputed') {
    const day = formatInvoiceDate(escrow.release_due_at, locale);
    lines.push(
      seller
        ? `Released to you on ${day} unless the buyer opens a dispute during the inspection period.`
        : `Released to the seller on ${day} unless you open a dispute before the inspection period ends.`,
    );
  }
  return lines.length > 0 ? { lines, payoutStatus: null, setupPrompt: null } : null;
}
