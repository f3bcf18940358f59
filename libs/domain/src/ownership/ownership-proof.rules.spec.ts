import { fileProof, nextProofCheckAt, ownershipRecord, proofDomainOf, refusedProofCheck, txtProof, waitInWords, PROOF_CHECKS_PER_HOUR } from './ownership-proof.rules';

describe('ownership proof rules (ADR 0040)', () => {
  it('proves the host of a website address, never an IP address or a single label', () => {
    expect(proofDomainOf('https://Shop.Example.com/about?x=1')).toBe('shop.example.com');
    expect(proofDomainOf('http://example.com.:8080')).toBe('example.com');
    expect(proofDomainOf('https://93.184.216.34/')).toBeNull();
    expect(proofDomainOf('http://[::1]/')).toBeNull();
    expect(proofDomainOf('http://localhost/')).toBeNull();
    expect(proofDomainOf('not a url')).toBeNull();
  });

  it('matches a TXT record joined from its character strings, and tells another token from none', () => {
    const token = 'tok_abc123';
    expect(txtProof([['v=spf1 -all'], ['site-market-', 'verification=tok_abc123']], token)).toBe('match');
    expect(txtProof([['Site-Market-Verification= tok_abc123 ']], token)).toBe('match');
    expect(txtProof([['site-market-verification=tok_other']], token)).toBe('other_token');
    expect(txtProof([['v=spf1 -all']], token)).toBe('none');
    expect(txtProof([], token)).toBe('none');
    expect(ownershipRecord(token)).toBe('site-market-verification=tok_abc123');
  });

  it('matches a well-known file holding the token alone or as a record, on any line', () => {
    expect(fileProof('tok_abc123\n', 'tok_abc123')).toBe('match');
    expect(fileProof('site-market-verification=tok_seller\r\nsite-market-verification=tok_abc123\n', 'tok_abc123')).toBe('match');
    expect(fileProof('site-market-verification=tok_seller\n', 'tok_abc123')).toBe('other_token');
    expect(fileProof('<html>not found</html>', 'tok_abc123')).toBe('none');
    expect(fileProof('tok_abc1234', 'tok_abc123')).toBe('none');
  });

  it('spaces checks out and caps them per hour', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    const ago = (ms: number) => new Date(now.getTime() - ms);
    expect(nextProofCheckAt({ last_checked_at: null, window_started_at: null, checks_in_window: 0 }, now)).toBeNull();
    expect(nextProofCheckAt({ last_checked_at: ago(4_000), window_started_at: ago(4_000), checks_in_window: 1 }, now)).toEqual(new Date(now.getTime() + 6_000));
    expect(nextProofCheckAt({ last_checked_at: ago(60_000), window_started_at: ago(600_000), checks_in_window: PROOF_CHECKS_PER_HOUR }, now)).toEqual(
      new Date(now.getTime() + 3_000_000),
    );
    expect(nextProofCheckAt({ last_checked_at: ago(60_000), window_started_at: ago(3_700_000), checks_in_window: PROOF_CHECKS_PER_HOUR }, now)).toBeNull();
  });

  it('says a wait in seconds, or in whole minutes from two minutes on', () => {
    expect([1, 2, 119, 120, 121, 3000].map(waitInWords)).toEqual(['1 second', '2 seconds', '119 seconds', '2 minutes', '3 minutes', '50 minutes']);
  });

  it('names the quota that refuses a check, with the seconds until it has room (ADR 0064)', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    const ago = (ms: number) => new Date(now.getTime() - ms);
    expect(refusedProofCheck({ last_checked_at: ago(60_000), window_started_at: ago(600_000), checks_in_window: 3 }, now)).toBeNull();
    expect(refusedProofCheck({ last_checked_at: ago(4_000), window_started_at: ago(4_000), checks_in_window: 1 }, now)).toEqual({
      policy: 'domain-check-pause',
      quota: 1,
      window_seconds: 10,
      reset_seconds: 6,
    });
    // A pause of 9.5 s left rounds up: waiting what it says is always enough.
    expect(refusedProofCheck({ last_checked_at: ago(500), window_started_at: ago(500), checks_in_window: 1 }, now)?.reset_seconds).toBe(10);
    expect(refusedProofCheck({ last_checked_at: ago(60_000), window_started_at: ago(600_000), checks_in_window: PROOF_CHECKS_PER_HOUR }, now)).toEqual({
      policy: 'domain-checks',
      quota: PROOF_CHECKS_PER_HOUR,
      window_seconds: 3600,
      reset_seconds: 3000,
    });
    // The 20th check a moment ago: the hour's budget, not the 10 s pause, says when the next may run.
    const spentJustNow = { last_checked_at: ago(2_000), window_started_at: ago(600_000), checks_in_window: PROOF_CHECKS_PER_HOUR };
    expect(refusedProofCheck(spentJustNow, now)).toMatchObject({ policy: 'domain-checks', reset_seconds: 3000 });
    expect(nextProofCheckAt(spentJustNow, now)).toEqual(new Date(now.getTime() + 3_000_000));
  });
});
