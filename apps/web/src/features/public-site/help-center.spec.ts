import { sellingFeeText } from '@market/domain';
import { faq, helpSectionOf, HOW_TO_BUY, howToSell } from './help-center';

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
    'coming soon',
    '30-day dispute period',
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
