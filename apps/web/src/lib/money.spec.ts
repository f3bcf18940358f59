import { formatCents, formatMoney } from './money';

describe('formatMoney', () => {
  it('formats whole dollars without cents', () => {
    expect(formatMoney(25000)).toBe('$25,000');
    expect(formatMoney(0.5)).toBe('$0.50');
  });
});

describe('formatCents', () => {
  it('writes cents as dollars exactly, with cents only when there are some', () => {
    expect(formatCents(500_000)).toBe('$5,000');
    expect(formatCents(123_456)).toBe('$1,234.56');
    expect(formatCents(1)).toBe('$0.01');
    expect(formatCents(0)).toBe('$0');
    expect(formatCents(999_999_999_999)).toBe('$9,999,999,999.99');
  });
  it('refuses a fractional cent rather than round it', () => {
    expect(() => formatCents(10.5)).toThrow(RangeError);
  });
});
