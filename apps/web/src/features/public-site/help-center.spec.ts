import { FAQ, helpSectionOf, HOW_TO_BUY, HOW_TO_SELL } from './help-center';

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
  const all = [...HOW_TO_BUY, ...HOW_TO_SELL].map((s) => s.text).concat(FAQ.map((f) => f.answer)).join(' ');
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
