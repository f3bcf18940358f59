import fc from 'fast-check';
import { auditDiff, auditSnapshot, isEmptyDiff, isSecretKey } from './audit-diff.rules';

const SETTINGS = {
  smtp_host: 'mail.example.com',
  smtp_port: 587,
  smtp_username: 'mailer',
  smtp_password: 'old-smtp-secret',
  success_fee: 0,
  auto_approve: false,
  anti_sniping_minutes: 10,
};

describe('audit diff', () => {
  it('keeps only the changed keys, with their old and new values', () => {
    const diff = auditDiff(SETTINGS, { ...SETTINGS, success_fee: 2.55, auto_approve: true });
    expect(diff).toEqual({ before: { auto_approve: false, success_fee: 0 }, after: { auto_approve: true, success_fee: 2.55 }, changed_secrets: [] });
    expect(isEmptyDiff(diff)).toBe(false);
  });

  it('says only that the SMTP password changed, never its old or new value', () => {
    const diff = auditDiff(SETTINGS, { ...SETTINGS, smtp_password: 'new-smtp-secret', smtp_port: 465 });
    expect(diff).toEqual({ before: { smtp_port: 587 }, after: { smtp_port: 465 }, changed_secrets: ['smtp_password'] });
    const written = JSON.stringify(diff);
    expect(written).not.toContain('old-smtp-secret');
    expect(written).not.toContain('new-smtp-secret');
  });

  it('records nothing for a save that changes nothing, nor for a password kept as it was', () => {
    const diff = auditDiff(SETTINGS, { ...SETTINGS });
    expect(diff).toEqual({ before: {}, after: {}, changed_secrets: [] });
    expect(isEmptyDiff(diff)).toBe(true);
  });

  it('treats a missing key as null and keeps dates as ISO text', () => {
    const at = new Date('2026-11-25T10:00:00Z');
    expect(auditDiff({ a: 1 }, { a: 1, b: at })).toEqual({ before: { b: null }, after: { b: '2026-11-25T10:00:00.000Z' }, changed_secrets: [] });
  });

  it('names passwords, tokens, secrets and keys as secret, and ordinary fields not', () => {
    for (const key of ['smtp_password', 'password_hash', 'access_token', 'token', 'client_secret', 'STRIPE_SECRET_KEY', 'api_key', 'passphrase']) {
      expect([key, isSecretKey(key)]).toEqual([key, true]);
    }
    for (const key of ['status', 'verified', 'featured', 'success_fee', 'smtp_username', 'smtp_host']) expect([key, isSecretKey(key)]).toEqual([key, false]);
  });

  it('never lets a secret value through, whatever the records hold', () => {
    const secretKey = fc.constantFrom('smtp_password', 'password', 'reset_token', 'client_secret', 'api_key');
    const plainKey = fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !isSecretKey(key));
    const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(fc.dictionary(plainKey, value), fc.dictionary(plainKey, value), secretKey, fc.string({ minLength: 12 }), fc.string({ minLength: 12 }), (a, b, key, oldSecret, newSecret) => {
        const diff = auditDiff({ ...a, [key]: oldSecret }, { ...b, [key]: newSecret });
        for (const side of [diff.before, diff.after]) expect(Object.keys(side).some(isSecretKey)).toBe(false);
        expect(diff.changed_secrets).toEqual(oldSecret === newSecret ? [] : [key]);
        // Values come only from the plain fields, so a secret appears only if a plain field held the same text.
        const plainValues = new Set([...Object.values(a), ...Object.values(b)]);
        for (const side of [diff.before, diff.after]) for (const kept of Object.values(side)) expect(plainValues.has(kept) || kept === null).toBe(true);
      }),
    );
  });

  it('snapshots chosen fields and refuses to snapshot a secret one', () => {
    expect(auditSnapshot({ status: 'active', verified: false, email: 'x@example.com' }, ['status', 'verified'])).toEqual({ status: 'active', verified: false });
    expect(() => auditSnapshot({ password_hash: 'h' }, ['password_hash'])).toThrow('never enters the audit log');
  });
});
