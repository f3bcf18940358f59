import { commitRefusal, type CommitAct } from './commit.rules';

const ACTS: CommitAct[] = ['bid', 'offer', 'buy', 'list'];

describe('commitRefusal (ADR 0037)', () => {
  it.each(ACTS)('lets an active member with a verified email %s', (act) => {
    expect(commitRefusal({ status: 'active', email_verified: true }, act, true)).toBeNull();
  });

  it.each(ACTS)('asks an unverified member to verify before they %s, and says where the link is sent again', (act) => {
    const reason = commitRefusal({ status: 'active', email_verified: false }, act, true);
    expect(reason).toMatch(/^Verify your email address to /);
    expect(reason).toContain('We can send the link again from your profile.');
  });

  it('names what the member tried to do', () => {
    expect(commitRefusal({ email_verified: false }, 'bid', true)).toBe('Verify your email address to bid. We can send the link again from your profile.');
    expect(commitRefusal({ email_verified: false }, 'offer', true)).toContain('to make an offer.');
    expect(commitRefusal({ email_verified: false }, 'buy', true)).toContain('to buy a website.');
    expect(commitRefusal({ email_verified: false }, 'list', true)).toContain('to list a website for sale.');
  });

  it('fails closed: an unknown verified state counts as unverified', () => {
    expect(commitRefusal({ status: 'active' }, 'bid', true)).toMatch(/^Verify your email address/);
  });

  it.each(ACTS)('lets an unverified member %s while the admin does not require a verified email', (act) => {
    expect(commitRefusal({ status: 'active', email_verified: false }, act, false)).toBeNull();
    expect(commitRefusal({ status: 'active' }, act, false)).toBeNull();
  });

  it.each(ACTS)('never lets a suspended member %s, verified or not, whatever the setting', (act) => {
    for (const email_verified of [true, false]) {
      for (const required of [true, false]) {
        expect(commitRefusal({ status: 'suspended', email_verified }, act, required)).toMatch(/^Your account is suspended, so you cannot .+ Please contact support\.$/);
      }
    }
  });

  it('never lets a deleted account commit', () => {
    expect(commitRefusal({ status: 'deleted', email_verified: true }, 'bid', false)).toBe('This account was deleted, so it cannot bid.');
  });
});
