import type { EventPayloads } from '@market/contracts';
import type { Notice } from './notice';

type SaleLapsed = EventPayloads['sale.lapsed'];

/**
 * ADR 0043: the buyer learns the unpaid sale ended (and, for a lapse, that it counts as a strike). A refunded sale's
 * buyer is told by payment.refunded instead.
 */
export function saleLapsedBuyerNotice(e: SaleLapsed): Notice {
  const about = `"${e.website_title}" (${e.invoice_number})`;
  const paragraphs =
    e.reason === 'unpaid'
      ? [
          `Your purchase of ${about} was cancelled because it was not paid within the payment window. The site is back on sale and nothing was charged.`,
          'An unpaid purchase counts against your account: after two within 90 days, your bids, offers and purchases are put on hold until support lifts it.',
        ]
      : [`An admin cancelled your purchase of ${about}. Nothing was charged.`, `The admin's reason:\n${e.note ?? ''}`];
  if (e.reason === 'admin_cancelled' && e.strike) paragraphs.push('This cancellation counts as an unpaid purchase against your account.');
  return { subject: `Your purchase of "${e.website_title}" was cancelled`, paragraphs, link_path: '/dashboard?tab=invoices', action: 'See your invoices' };
}

/** ADR 0043: the seller learns the sale fell through and that the listing is for sale again (or its other bids are open). */
export function saleLapsedSellerNotice(e: SaleLapsed): Notice {
  const about = `"${e.website_title}" (${e.invoice_number})`;
  const why = e.reason === 'unpaid' ? 'the buyer did not pay within the payment window' : e.reason === 'refunded' ? "the buyer's payment was refunded" : 'an admin cancelled it';
  const paragraphs = [
    e.reason === 'refunded'
      ? `The sale of ${about} was cancelled because ${why}. No funds will be released to you; if you handed anything over, take it back or contact support.`
      : `The sale of ${about} was cancelled because ${why}. No money was taken, so there is nothing to transfer.`,
    'Your listing is back on sale until its end. If it has already ended, its other bids stay open: you can accept one from My Bids for 7 days.',
  ];
  if (e.reason === 'admin_cancelled') paragraphs.push(`The admin's reason:\n${e.note ?? ''}`);
  return { subject: `The sale of "${e.website_title}" fell through`, paragraphs, link_path: `/listing/${e.listing_id}`, action: 'See your listing' };
}
