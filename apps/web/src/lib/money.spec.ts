import { formatMoney } from './money';

describe('formatMoney', () => {
  it('formats whole dollars without cents', () => {
    expect(formatMoney(25000)).toBe('$25,000');
    expect(formatMoney(0.5)).toBe('$0.50');
  });
});
