import { UserBidRowSchema, type UserBidRow } from './bid.schemas';

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
