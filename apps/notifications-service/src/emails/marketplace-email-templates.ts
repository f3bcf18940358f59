import { formatDollars } from '@market/domain';
import { TEST_MODE_NOTICE, type EventPayloads, type PaymentFacts } from '@market/contracts';
import type { Notice } from './notice';

const listingPath = (id: string) => `/listing/${encodeURIComponent(id)}`;
const invoicesPath = (invoiceId?: string) => (invoiceId ? `/dashboard?tab=invoices&pay=${encodeURIComponent(invoiceId)}` : '/dashboard?tab=invoices');
const date = (iso: string) => new Date(iso).toUTCString().replace(' GMT', ' UTC');

/** An invoice or payment notice written while the sandbox ran: its subject and first line say no real money moved (ADR 0033). */
export function markedTestMode(notice: Notice, testMode: boolean | undefined): Notice {
  if (!testMode) return notice;
  return { ...notice, subject: `[TEST MODE] ${notice.subject}`, paragraphs: [TEST_MODE_NOTICE, ...notice.paragraphs] };
}

/** D19 (new bid, D5): the seller hears of every private offer on their fixed-price listing, to accept or reject it. */
export function offerNotice(e: EventPayloads['offer.made']): Notice {
  return {
    subject: `New offer on "${e.listing_title}": ${formatDollars(e.amount)}`,
    paragraphs: [
      `You received a ${formatDollars(e.amount)} offer on "${e.listing_title}".`,
      'Offers are private. Accept it from My Bids to sell at this price, or reject it; the buyer is told either way.',
    ],
    link_path: '/dashboard?tab=bids',
    action: 'Review the offer',
  };
}

/** The bidder whose pending bid or offer the seller turned down. */
export function bidRejectedNotice(e: EventPayloads['bid.rejected']): Notice {
  const what = e.kind === 'offer' ? 'offer' : 'bid';
  return {
    subject: `Your ${what} on "${e.listing_title}" was declined`,
    paragraphs: [
      `The seller declined your ${formatDollars(e.amount)} ${what} on "${e.listing_title}".`,
      e.kind === 'offer' ? 'You can make another offer while the listing is for sale.' : 'You can bid again while the auction is live.',
    ],
    link_path: listingPath(e.listing_id),
    action: 'View the listing',
  };
}

/** A listing an admin cancelled (ADR 0042): its bidders learn their bids are void, and its seller why it was cancelled. */
export function listingCancelledNotice(e: EventPayloads['auction.cancelled'], role: 'bidder' | 'seller'): Notice {
  return {
    subject: `"${e.listing_title}" was cancelled`,
    paragraphs:
      role === 'bidder'
        ? [
            `Site Market cancelled "${e.listing_title}", a listing you bid on. Your bids on it are void and nothing is owed.`,
            `The reason given: ${e.reason}`,
          ]
        : [
            `Site Market cancelled your listing "${e.listing_title}". Its bids are void and its bidders have been told.`,
            `The reason given: ${e.reason}`,
            'Reply to this email or use the contact page if you think this is a mistake.',
          ],
    link_path: role === 'bidder' ? '/browse' : '/dashboard?tab=listings',
    action: role === 'bidder' ? 'Browse other listings' : 'See your listings',
  };
}

/** D19: the buyer of a sale that ended at its auction, was accepted, or bought. */
export function wonNotice(e: EventPayloads['auction.closed']): Notice {
  return {
    subject: `You won "${e.listing_title}"`,
    paragraphs: [
      `Congratulations: your ${formatDollars(e.amount ?? 0)} ${e.reason === 'bought' ? 'purchase of' : 'bid on'} "${e.listing_title}" won the sale.`,
      'Your invoice follows in a separate email. Once you pay it, the funds are held until the site is transferred to you.',
    ],
    link_path: invoicesPath(),
    action: 'See your invoices',
  };
}

/** D19 (won): the bidder whose bid the seller accepted after the sale ended unsold (D8). */
export function bidAcceptedNotice(e: EventPayloads['bid.accepted']): Notice {
  return {
    subject: `Your ${e.kind === 'offer' ? 'offer' : 'bid'} on "${e.listing_title}" was accepted`,
    paragraphs: [
      `Congratulations: the seller accepted your ${formatDollars(e.amount)} ${e.kind === 'offer' ? 'offer' : 'bid'} on "${e.listing_title}", so the site is yours to buy.`,
      'Your invoice follows in a separate email. Once you pay it, the funds are held until the site is transferred to you.',
    ],
    link_path: invoicesPath(),
    action: 'See your invoices',
  };
}

/** D19: the seller, when their sale ends: sold, or ended unsold with bids they may still accept (D8). */
export function saleEndedNotice(e: EventPayloads['auction.closed']): Notice {
  if (e.outcome === 'sold') {
    return {
      subject: `"${e.listing_title}" sold for ${formatDollars(e.amount ?? 0)}`,
      paragraphs: [
        `Your listing "${e.listing_title}" sold for ${formatDollars(e.amount ?? 0)}.`,
        'The buyer has been invoiced. We will email you when their payment is held, so you can start the transfer.',
      ],
      link_path: invoicesPath(),
      action: 'See the invoice',
    };
  }
  const why = e.reason === 'reserve_not_met' ? 'the reserve price was not met' : e.reason === 'no_bids' ? 'no bids came in' : 'no bid was accepted';
  return {
    subject: `Your listing "${e.listing_title}" has ended`,
    paragraphs: [
      `"${e.listing_title}" ended without a sale: ${why}.`,
      ...(e.pending_bids > 0
        ? [`${e.pending_bids} bid${e.pending_bids === 1 ? ' is' : 's are'} still open: you can accept one from My Bids within 7 days.`]
        : []),
    ],
    link_path: e.pending_bids > 0 ? '/dashboard?tab=bids' : listingPath(e.listing_id),
    action: e.pending_bids > 0 ? 'Review the bids' : 'View your listing',
  };
}

/** D10, D19: the buyer's invoice, with a link that opens its payment. */
export function invoiceIssuedNotice(e: EventPayloads['invoice.issued']): Notice {
  return markedTestMode({
    subject: `Invoice ${e.invoice_number} for "${e.website_title}"`,
    paragraphs: [
      `Your invoice ${e.invoice_number} for "${e.website_title}" is ${formatDollars(e.total_amount)}, due by ${date(e.due_date)}.`,
      'When you pay, your card is authorised and the funds are held: they reach the seller only once the site transfer is verified.',
    ],
    link_path: invoicesPath(e.invoice_id),
    action: 'Pay the invoice',
  }, e.test_mode);
}

type PaymentEvent = 'payment.authorized' | 'payment.captured' | 'payment.refunded';

/** D11, D19: what a payment's change means to its buyer and to its seller. */
export function paymentNotice(event: PaymentEvent, role: 'buyer' | 'seller', e: PaymentFacts): Notice {
  const amount = formatDollars(e.amount);
  const about = `"${e.website_title}" (${e.invoice_number})`;
  const words: Record<PaymentEvent, Record<'buyer' | 'seller', [string, string]>> = {
    'payment.authorized': {
      buyer: [`Payment held for ${e.invoice_number}`, `We hold ${amount} on your card for ${about}. The funds are released to the seller only once the transfer is verified.`],
      seller: [`The buyer paid for "${e.website_title}"`, `The buyer's ${amount} for ${about} is held in escrow. Please start the site transfer now.`],
    },
    'payment.captured': {
      buyer: [`Your payment is held in escrow for ${e.invoice_number}`, `Your ${amount} for ${about} is now held in escrow by Site Market. It reaches the seller only once the transfer is verified and the inspection period has passed.`],
      seller: [`The buyer's funds are in escrow for "${e.website_title}"`, `The buyer's ${amount} for ${about} is now held in escrow by Site Market, so the transfer can take as long as it needs. It is paid out to you once the transfer is verified.`],
    },
    'payment.refunded': {
      buyer: [`Refund for ${e.invoice_number}`, `Your ${amount} payment for ${about} was refunded or its hold released. Your bank may take a few days to show it.`],
      seller: [`Payment refunded for "${e.website_title}"`, `The buyer's ${amount} payment for ${about} was refunded, so no funds will be released to you.`],
    },
  };
  const [subject, paragraph] = words[event][role];
  return markedTestMode({ subject, paragraphs: [paragraph], link_path: invoicesPath(), action: 'See your invoices' }, e.test_mode);
}

/** D11: the seller hears that the buyer's card hold lapsed before it was captured. */
export function holdExpiredSellerNotice(e: EventPayloads['invoice.hold_expired']): Notice {
  return markedTestMode({
    subject: `The payment hold for "${e.website_title}" expired`,
    paragraphs: [
      `The card hold on invoice ${e.invoice_number} for "${e.website_title}" lapsed before the funds were released, so nothing was charged.`,
      'The buyer has been asked to pay again. Please wait for a new payment before you finish the transfer.',
    ],
    link_path: invoicesPath(),
    action: 'See your invoices',
  }, e.test_mode);
}

/** D19: the receiver of a message. */
export function newMessageNotice(e: EventPayloads['message.sent'], senderName: string): Notice {
  return {
    subject: `New message from ${senderName}: ${e.subject}`,
    paragraphs: [`${senderName} sent you a message on Site Market.`, `Subject: ${e.subject}`, e.preview],
    link_path: '/dashboard?tab=messages',
    action: 'Read and reply',
  };
}

/** D19: a contact-form message, mailed to support; replies go to the sender. */
export function contactNotice(e: EventPayloads['contact.received'], signedInAs: string | null): Notice {
  return {
    subject: `[Contact: ${e.urgency}] ${e.subject} from ${e.name}`,
    paragraphs: [
      `From: ${e.name} <${e.email}>`,
      `Subject: ${e.subject}`,
      `Urgency: ${e.urgency}`,
      ...(signedInAs ? [`Signed in as ${signedInAs}`] : ['Not signed in']),
      `Received: ${date(e.received_at)}`,
      e.message,
    ],
    link_path: null,
    action: null,
    reply_to: e.email,
  };
}
