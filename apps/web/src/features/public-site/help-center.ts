import { DEFAULT_INSPECTION_DAYS } from '@market/domain';

/** The help center's sections (SPEC §2 `section` query). */
export const HELP_SECTIONS = [
  { id: 'how-to-buy', label: 'How to Buy' },
  { id: 'how-to-sell', label: 'How to Sell' },
  { id: 'faq', label: 'FAQ' },
] as const;
export type HelpSectionId = (typeof HELP_SECTIONS)[number]['id'];

/** The section a `?section=` value names; anything unknown (or nothing) is How to Buy. */
export function helpSectionOf(value: string | null): HelpSectionId {
  return HELP_SECTIONS.find((s) => s.id === value)?.id ?? 'how-to-buy';
}

export interface HelpStep {
  title: string;
  text: string;
}

/** SPEC §1 and §9: what buyers are told. */
export const HOW_TO_BUY: HelpStep[] = [
  { title: 'Find a site', text: 'Browse by category, price and type. Every listing shows its revenue, traffic, age and how it makes money; ask the seller anything with Contact Seller.' },
  { title: 'Do your due diligence', text: 'Check the numbers with the seller before you commit. We advise buying sites with 6+ months of stable revenue.' },
  { title: 'Bid or buy', text: 'Auctions are either auto (the highest bid at the end wins) or manual (the seller selects a bid). An auction may have a reserve price, hidden from bidders, below which it does not sell. Fixed-price listings take offers. A seller may always reject any bid.' },
  { title: 'Buy now, or use escrow', text: 'Direct purchase is allowed only when the price is below $5,000. From $5,000 up, purchase requires escrow, arranged by contacting the seller. We recommend escrow for any purchase above $1,000.' },
  { title: 'Pay the invoice', text: 'The winner, the accepted bidder or the buy-now buyer gets an invoice due in 7 days. Your card is authorised and the funds are held: they are released to the seller only once the site transfer is verified.' },
  { title: 'Take over the site', text: 'The seller transfers the domain, files and accounts. A typical sale completes in 2-4 weeks for a simple site, or 6-12 weeks for a large business. You can dispute until the funds are released to the seller.' },
];

/** SPEC §1 and §9: what sellers are told; `feeText` says what selling costs now (ADR 0026). */
export const howToSell = (feeText: string): HelpStep[] => [
  { title: 'Create your listing', text: `Describe your site, its revenue, traffic and how it makes money, and add up to 5 screenshots. ${feeText}` },
  { title: 'Choose how to sell', text: 'Run an auction (auto: the highest bid wins; manual: you select the winner) with an optional reserve price that bidders never see, or set a fixed price and take offers.' },
  { title: 'Pass review', text: 'Listings are reviewed within 24 hours. Once approved, your listing goes live for the duration you chose.' },
  { title: 'Answer buyers', text: 'Buyers message you from your listing; read and reply in Dashboard → Messages. You may always reject any bid.' },
  { title: 'Close the sale', text: 'When a bid wins or you accept one, the buyer is invoiced. Start the transfer once their payment is held; the funds are released to you when the transfer is verified.' },
];

export interface FaqEntry {
  question: string;
  answer: string;
}

/** The question sellers ask about their money (D22). */
export const SELLER_PAID_QUESTION = 'How do sellers get paid?';

/** D22 in a seller's words, with the inspection period in force (0 days: released as soon as the transfer is verified). */
export function sellerPaidAnswer(inspectionDays: number): string {
  const wait =
    inspectionDays > 0
      ? `and the ${inspectionDays}-day inspection period passes with no dispute`
      : 'and no dispute is open';
  return (
    "When a buyer pays, their card is authorised and the funds are held. They are captured into escrow when the seller starts the transfer (at the latest a day before the card hold ends) and stay there. " +
    `Once the transfer is verified (the buyer's domain proof, or their "I have received the site") ${wait}, the sale price less the success fee is sent to the seller's payout account. ` +
    'Payouts go through Stripe Connect: set up your payout account in Dashboard → Payouts. A buyer who finds a problem must open a dispute before the funds are released.'
  );
}

/**
 * SPEC §1 and §9: questions people ask; `feeText` says what selling costs now (ADR 0026), `inspectionDays` the
 * inspection period in force (D22).
 */
export const faq = (feeText: string, inspectionDays: number = DEFAULT_INSPECTION_DAYS): FaqEntry[] => [
  { question: 'Does it cost anything to list or sell?', answer: feeText },
  { question: SELLER_PAID_QUESTION, answer: sellerPaidAnswer(inspectionDays) },
  { question: 'Is escrow available?', answer: 'Yes: card payments are held in escrow by Site Market until the transfer is verified and the inspection period has passed, then paid to the seller. From $5,000 up, arrange the purchase by contacting the seller. Escrow is recommended above $1,000.' },
  { question: 'How long does a sale take?', answer: 'Typically 2-4 weeks for a simple site and 6-12 weeks for a large business.' },
  {
    question: 'What if the site is not as described?',
    answer: `Open a dispute from your invoice before the funds are released: while the transfer is under way, and for the ${inspectionDays}-day inspection period after it is verified. An admin decides whether the seller is paid or you are refunded.`,
  },
  { question: 'Can I see the reserve price?', answer: 'No. Only the seller and our admins see it; bidders see whether the reserve is met.' },
  { question: 'Who can use Site Market?', answer: 'Anyone 18 or older. One account can both buy and sell.' },
  { question: 'Which currency do you use?', answer: 'US dollars, in whole dollars (no cents).' },
  { question: 'How quickly are listings approved?', answer: 'Listings are reviewed within 24 hours.' },
];
