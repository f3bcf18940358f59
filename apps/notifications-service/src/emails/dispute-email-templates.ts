import { DISPUTE_REASON_LABELS, type DisputeReason } from '@market/domain';
import type { EventPayloads } from '@market/contracts';
import type { Notice } from './notice';

const invoicesPath = '/dashboard?tab=invoices';
const date = (iso: string) => new Date(iso).toUTCString().replace(' GMT', ' UTC');
const reasonLabel = (reason: string) => DISPUTE_REASON_LABELS[reason as DisputeReason] ?? reason;

/** ADR 0039: the seller hears that the buyer disputed the transfer, with the buyer's reason and words. */
export function disputeOpenedSellerNotice(e: EventPayloads['dispute.opened']): Notice {
  return {
    subject: `The buyer disputed the transfer of "${e.website_title}"`,
    paragraphs: [
      `The buyer opened a dispute on invoice ${e.invoice_number} for "${e.website_title}". Their payment stays held while an admin reviews it.`,
      `Reason: ${reasonLabel(e.reason)}`,
      `The buyer wrote:\n${e.message}`,
      'Please reply to the buyer through Site Market messages and finish the transfer if you can. An admin will release the funds to you or refund the buyer before the payment hold ends.',
    ],
    link_path: invoicesPath,
    action: 'See the invoice',
  };
}

/** ADR 0039: both parties hear how a dispute ended, with the admin's note. */
export function disputeResolvedNotice(e: EventPayloads['dispute.resolved'], role: 'buyer' | 'seller'): Notice {
  const about = `"${e.website_title}" (${e.invoice_number})`;
  const outcome: Record<typeof e.outcome, Record<'buyer' | 'seller', string>> = {
    released: {
      buyer: `An admin decided the dispute on ${about}: your payment was released to the seller.`,
      seller: `An admin decided the dispute on ${about}: the buyer's payment was released to you.`,
    },
    refunded: {
      buyer: `An admin decided the dispute on ${about}: your payment was refunded. Your bank may take a few days to show it.`,
      seller: `An admin decided the dispute on ${about}: the buyer's payment was refunded, so no funds will be released to you.`,
    },
    lapsed: {
      buyer: `The card hold for ${about} ended at the payment provider before the dispute was decided, so nothing was charged.`,
      seller: `The buyer's card hold for ${about} ended at the payment provider before the dispute was decided, so no funds will be released to you. Support will contact you.`,
    },
  };
  return {
    subject: `Dispute decided for ${e.invoice_number}`,
    paragraphs: [outcome[e.outcome][role], ...(e.note ? [`The admin's note:\n${e.note}`] : [])],
    link_path: invoicesPath,
    action: 'See the invoice',
  };
}

/** ADR 0039: both parties hear that the hold behind an undecided dispute ends soon and an admin is deciding now. */
export function disputeEscalatedNotice(e: EventPayloads['dispute.escalated']): Notice {
  return {
    subject: `Dispute on ${e.invoice_number}: a decision is due`,
    paragraphs: [
      `The payment hold for "${e.website_title}" (${e.invoice_number}) ends on ${date(e.capture_deadline)} and the dispute is still open.`,
      'It has been flagged urgent for our admins, who will release the funds or refund the buyer before then. If you have anything to add, reply through Site Market messages now.',
    ],
    link_path: invoicesPath,
    action: 'See the invoice',
  };
}
