import { latestPricePerListing, priceVersionOf, type PriceUpdate } from './price-updates.rules';

const update = (listing_id: string, current_bid: number, price_version: number | undefined, expires_at: string | null = null, bid_count = 1): PriceUpdate => ({
  listing_id,
  current_bid,
  bid_count,
  expires_at,
  ...(price_version === undefined ? {} : { price_version }),
});

/** Every order of a list (small lists only). */
function orders<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => orders([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

describe('price updates in a batch (ADR 0057)', () => {
  it('reads the version, or the bid count for an event from before versions', () => {
    expect(priceVersionOf({ bid_count: 3, price_version: 7 })).toBe(7);
    expect(priceVersionOf({ bid_count: 3 })).toBe(3);
  });

  it('is empty for no updates, and passes one update through with its version', () => {
    expect(latestPricePerListing([])).toEqual([]);
    expect(latestPricePerListing([update('a', 100, undefined, null, 2)])).toEqual([{ ...update('a', 100, undefined, null, 2), price_version: 2 }]);
  });

  it('keeps the highest version per listing whatever the order, with the latest end of the batch', () => {
    const batch = [
      update('b', 1100, 3, '2026-11-26T10:00:00.000Z'),
      update('b', 1000, 1, '2026-11-26T09:00:00.000Z'),
      update('b', 1050, 2, null),
      update('a', 500, 9, null),
    ];
    for (const order of orders(batch)) {
      expect(latestPricePerListing(order)).toEqual([
        { ...update('a', 500, 9, null) },
        { ...update('b', 1100, 3, '2026-11-26T10:00:00.000Z') },
      ]);
    }
  });

  it('keeps a later end named by an older event of the same batch (the end only moves later)', () => {
    const [only] = latestPricePerListing([update('a', 200, 2, '2026-11-26T09:00:00.000Z'), update('a', 100, 1, '2026-11-26T11:00:00.000Z')]);
    expect(only).toMatchObject({ current_bid: 200, price_version: 2, expires_at: '2026-11-26T11:00:00.000Z' });
  });

  it('keeps the first of equal versions (a redelivery) and orders listings by id', () => {
    const result = latestPricePerListing([update('c', 300, 4), update('a', 100, 1), update('c', 999, 4), update('b', 200, 1)]);
    expect(result.map((u) => [u.listing_id, u.current_bid])).toEqual([
      ['a', 100],
      ['b', 200],
      ['c', 300],
    ]);
  });
});
