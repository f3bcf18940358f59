import type { EventPayloads } from '@market/contracts';
import { REVIEW_WINDOW_DAYS } from '@market/domain';
import type { Notice } from './notice';

/**
 * D23: a sale paid out asks each party, once, to review the other within the window; the review waits on the
 * Invoices tab, where the row's action opens it.
 */
export function reviewRequestNotice(e: EventPayloads['sale.completed'], role: 'buyer' | 'seller'): Notice {
  const other = role === 'buyer' ? 'the seller' : 'the buyer';
  return {
    subject: `How did the sale of "${e.website_title}" go?`,
    paragraphs: [
      `The sale of "${e.website_title}" (${e.invoice_number}) is complete. Tell other members how it went: rate ${other} from 1 to 5 stars and say a few words.`,
      `You have ${REVIEW_WINDOW_DAYS} days. Your review stays private until ${other} has written theirs or the ${REVIEW_WINDOW_DAYS} days are over, so neither of you writes in answer to the other.`,
    ],
    link_path: `/dashboard?tab=invoices&review=${e.invoice_id}`,
    action: 'Write your review',
  };
}
