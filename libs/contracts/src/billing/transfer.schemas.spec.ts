import { DISPUTE_REASONS } from '@market/domain';
import { OpenDisputeRequestSchema, ResolveDisputeRequestSchema } from './transfer.schemas';

describe('dispute texts count characters as the database does', () => {
  const reason = DISPUTE_REASONS[0];

  it('refuses a message of 10 emoji (20 UTF-16 units, but 10 characters) instead of letting the table refuse it', () => {
    expect(OpenDisputeRequestSchema.safeParse({ reason, message: '😡'.repeat(10) }).success).toBe(false);
    expect(OpenDisputeRequestSchema.safeParse({ reason, message: '😡'.repeat(20) }).success).toBe(true);
  });

  it('accepts 2000 emoji and refuses 2001', () => {
    expect(OpenDisputeRequestSchema.safeParse({ reason, message: '😡'.repeat(2000) }).success).toBe(true);
    expect(OpenDisputeRequestSchema.safeParse({ reason, message: '😡'.repeat(2001) }).success).toBe(false);
  });

  it('applies the same counting to the admin note', () => {
    expect(ResolveDisputeRequestSchema.safeParse({ action: 'refund', note: '✅'.repeat(9) }).success).toBe(false);
    expect(ResolveDisputeRequestSchema.safeParse({ action: 'refund', note: '🙂'.repeat(10) }).success).toBe(true);
  });
});
