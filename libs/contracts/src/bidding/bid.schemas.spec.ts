import { bidAmountRefusal, MAX_DOLLARS, maxAmountRefusal } from '@market/domain';
import { PlaceBidSchema, UserBidRowSchema, type UserBidRow } from './bid.schemas';

const row: UserBidRow = {
  id: '0b6f6f4e-3c1a-4c55-9a55-7f1b6f8f2c11',
  listing_id: '1b6f6f4e-3c1a-4c55-9a55-7f1b6f8f2c11',
  listing_title: 'Heron watching blog',
  current_bid: 2105,
  role: 'buyer',
  kind: 'bid',
  bidder_id: '2b6f6f4e-3c1a-4c55-9a55-7f1b6f8f2c11',
  bidder_username: 'ann_buyer',
  bidder_verified: false,
  amount: 2000,
  status: 'pending',
  is_winning: false,
  leading: true,
  latest: false,
  automatic: false,
  max_amount: null,
  created_at: '2026-11-26T10:00:00.000Z',
};

describe('UserBidRowSchema (ADR 0060)', () => {
  it("carries where the row's bidder stands: leading and latest, both required booleans", () => {
    expect(UserBidRowSchema.parse(row)).toEqual(row);
    for (const field of ['leading', 'latest'] as const) {
      const { [field]: _dropped, ...without } = row;
      expect(UserBidRowSchema.safeParse(without).success).toBe(false);
      expect(UserBidRowSchema.safeParse({ ...row, [field]: 'yes' }).success).toBe(false);
    }
  });
  it('has no field beyond the contract (strict): a maximum travels only as max_amount, checked by the service', () => {
    expect(UserBidRowSchema.safeParse({ ...row, bidder_max_amount: 3000 }).success).toBe(false);
  });
});

describe('PlaceBidSchema and the domain rule the bid form checks with (bidAmountRefusal)', () => {
  const listing_id = '0b7d3c3e-4b8f-4f7e-9b8a-2f1a7f4f7a11';
  const values = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -3, 0, 0.5, 1, 1.5, 42, MAX_DOLLARS, MAX_DOLLARS + 1, 1e21];
  const firstIssue = (body: unknown, field: string) => {
    const parsed = PlaceBidSchema.safeParse(body);
    return parsed.success ? null : (parsed.error.issues.find((issue) => issue.path[0] === field)?.message ?? null);
  };

  it.each(values)('agree on a bid of %p', (amount) => {
    expect(firstIssue({ listing_id, amount }, 'amount')).toBe(bidAmountRefusal('amount', amount));
  });

  it.each(values)('agree on a maximum of %p over a bid of $1', (max_amount) => {
    expect(firstIssue({ listing_id, amount: 1, max_amount }, 'max_amount')).toBe(maxAmountRefusal(1, max_amount));
  });

  it('agree on a maximum below the bid', () => {
    expect(firstIssue({ listing_id, amount: 500, max_amount: 499 }, 'max_amount')).toBe(maxAmountRefusal(500, 499));
    expect(maxAmountRefusal(500, 499)).not.toBeNull();
  });
});
