import { stampAfter } from './database-clock';

describe('bids stamped from the database clock', () => {
  it('adds microseconds and drops them to the millisecond as to_char MS does', () => {
    expect(stampAfter('2026-12-06T09:40:12.123456Z', 1)).toBe('2026-12-06T09:40:12.123Z');
    expect(stampAfter('2026-12-06T09:40:12.123999Z', 1)).toBe('2026-12-06T09:40:12.124Z');
    expect(stampAfter('2026-12-31T23:59:59.999999Z', 2)).toBe('2027-01-01T00:00:00.000Z');
  });

  it('refuses anything that is not a reading', () => {
    expect(() => stampAfter('2026-12-06 09:40:12+00', 1)).toThrow(/Not a database clock reading/);
    expect(() => stampAfter('2026-12-06T09:40:12.123456Z', -1)).toThrow(/Not a database clock reading/);
  });
});
