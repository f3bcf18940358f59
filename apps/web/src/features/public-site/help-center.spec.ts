import { sellingFeeText } from '@market/domain';
import { faq, helpSectionOf, HOW_TO_BUY, howToSell, SELLER_PAID_QUESTION, sellerPaidAnswer } from './help-center';

describe('helpSectionOf (SPEC §2)', () => {
  it.each([
    ['how-to-buy', 'how-to-buy'],
    ['how-to-sell', 'how-to-sell'],
    ['faq', 'faq'],
    ['pricing', 'how-to-buy'],
    ['FAQ', 'how-to-buy'],
    [null, 'how-to-buy'],
  ])('%s -> %s', (value, section) => {
    expect(helpSectionOf(value)).toBe(section);
  });
});

describe('help texts (SPEC §1, §9)', () => {
  const textsWith = (feeText: string) => [...HOW_TO_BUY, ...howToSell(feeText)].map((s) => s.text).concat(faq(feeText).map((f) => f.answer)).join(' ');
  const all = textsWith(sellingFeeText(0));

  it('states a success fee once one is set, and no longer says selling is free (ADR 0026)', () => {
    const charged = textsWith(sellingFeeText(5)).toLowerCase();
    expect(charged).toContain('a success fee of 5% of the sale price');
    expect(charged).not.toContain('currently free');
  });

  it.each([
    'listing and selling is currently free',
    'held in escrow by site market',
    'dispute until the funds are released',
    'recommended above $1,000',
    '2-4 weeks',
    '6-12 weeks',
    '6+ months of stable revenue',
    'reviewed within 24 hours',
    'below $5,000',
    '18 or older',
    'may always reject any bid',
  ])('says "%s"', (phrase) => {
    expect(all.toLowerCase()).toContain(phrase.toLowerCase());
  });
});

describe('How do sellers get paid? (D22)', () => {
  const answerOf = (days?: number) => faq(sellingFeeText(5), days).find((entry) => entry.question === SELLER_PAID_QUESTION)?.answer ?? '';

  it('is in the FAQ, with the default 3-day inspection period until the fees are loaded', () => {
    expect(answerOf()).toBe(sellerPaidAnswer(3));
    expect(answerOf()).toContain('the 3-day inspection period passes with no dispute');
  });

  it('walks through the hold, the capture into escrow, the verified transfer, the payout and the dispute deadline', () => {
    const answer = answerOf(7);
    expect(answer).toContain('card is authorised and the funds are held');
    expect(answer).toContain('captured into escrow when the seller starts the transfer (at the latest a day before the card hold ends)');
    expect(answer).toContain('"I have received the site"');
    expect(answer).toContain('the 7-day inspection period');
    expect(answer).toContain('the sale price less the success fee is sent to the seller\'s payout account');
    expect(answer).toContain('Stripe Connect');
    expect(answer).toContain('Dashboard → Payouts');
    expect(answer).toContain('must open a dispute before the funds are released');
  });

  it('says the funds go as soon as the transfer is verified when the inspection period is 0', () => {
    expect(sellerPaidAnswer(0)).toContain('and no dispute is open, the sale price');
    expect(sellerPaidAnswer(0)).not.toContain('0-day');
  });
});
