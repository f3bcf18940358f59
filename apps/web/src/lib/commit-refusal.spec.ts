import { commitRefusalFor } from './commit-refusal';

describe('commitRefusalFor (ADR 0037)', () => {
  const fees = (required: boolean) => ({ success_fee_percent: 0, verified_email_required: required, inspection_days: 3 });

  it('asks a member whose email is not verified to verify first, naming the act', () => {
    expect(commitRefusalFor({ email_verified: false }, 'bid', fees(true))).toBe('Verify your email address to bid. We can send the link again from your profile.');
    expect(commitRefusalFor({ email_verified: false }, 'list', fees(true))).toContain('to list a website for sale');
  });

  it('assumes the default (required) until the public settings arrive', () => {
    expect(commitRefusalFor({ email_verified: false }, 'buy', undefined)).toContain('to buy a website');
  });

  it('says nothing to guests, verified members, or anyone while the admin does not require it', () => {
    expect(commitRefusalFor(null, 'bid', fees(true))).toBeNull();
    expect(commitRefusalFor({ email_verified: true }, 'bid', fees(true))).toBeNull();
    expect(commitRefusalFor({ email_verified: false }, 'offer', fees(false))).toBeNull();
  });
});
