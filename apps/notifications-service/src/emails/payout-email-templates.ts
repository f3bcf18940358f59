import { formatDollars } from '@market/domain';
import type { EventPayloads } from '@market/contracts';
import type { Notice } from './notice';
import { markedTestMode } from './marketplace-email-templates';

/** Dollars as an email says them: whole dollars plain, a fee's cents kept ($57.05). */
const money = (dollars: number) => (Number.isInteger(dollars) ? formatDollars(dollars) : `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);
const PAYOUTS_PATH = '/dashboard?tab=payouts';

/** D22: the seller is paid, with what the buyer paid, the fee and what reached their account; the buyer hears it is done. */
export function payoutSentNotice(e: EventPayloads['payout.sent'], role: 'buyer' | 'seller'): Notice {
  const about = `"${e.website_title}" (${e.invoice_number})`;
  if (role === 'buyer') {
    return markedTestMode(
      {
        subject: `Purchase complete: ${e.website_title}`,
        paragraphs: [`The transfer of ${about} was verified and your ${money(e.gross)} payment was released to the seller. The purchase is complete.`],
        link_path: '/dashboard?tab=invoices',
        action: 'See your invoices',
      },
      e.test_mode,
    );
  }
  return markedTestMode(
    {
      subject: `Funds released for "${e.website_title}"`,
      paragraphs: [
        `The funds for ${about} were released to you: ${money(e.net)} was sent to your payout account.`,
        `Sale price ${money(e.gross)}, success fee ${money(e.fee)}, paid to you ${money(e.net)}. Your bank may take a few days to show it.`,
      ],
      link_path: PAYOUTS_PATH,
      action: 'See your payouts',
    },
    e.test_mode,
  );
}

/** D22: funds released to a seller whose payout account cannot take them yet; they wait for it, held. */
export function payoutWaitingNotice(e: EventPayloads['payout.waiting']): Notice {
  const about = `"${e.website_title}" (${e.invoice_number})`;
  const step =
    e.account_status === 'pending_verification'
      ? 'Your payout details are being verified; the payout goes out as soon as the check is done.'
      : e.account_status === 'restricted'
        ? 'Payouts to your account are restricted by the payment provider. Update your details from Dashboard \u2192 Payouts, or contact support.'
        : 'Set up payouts from Dashboard \u2192 Payouts: it takes a few minutes with our payment provider, and the payout goes out as soon as it is done.';
  return markedTestMode(
    {
      subject: `Set up payouts to receive ${money(e.net)} for "${e.website_title}"`,
      paragraphs: [`The funds for ${about} were released to you, but your payout account cannot receive them yet. They stay safely held until it can.`, step],
      link_path: PAYOUTS_PATH,
      action: 'Set up payouts',
    },
    e.test_mode,
  );
}
