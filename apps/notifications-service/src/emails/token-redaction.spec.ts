import { resetPasswordEmail, verifyEmail } from './email-templates';
import { REDACTED_TOKEN, redactedEmail, redactTokens } from './token-redaction';

const TOKEN = 'Zk3v_9Qx-L2pR8mT4wYc7Hn1bA6sD0fG5jK';

describe('one-time tokens in kept and shown copies of emails (ADR 0031)', () => {
  it.each([
    ['verification', verifyEmail({ username: 'ann', token: TOKEN, publicUrl: 'https://market.example' })],
    ['reset', resetPasswordEmail({ username: 'ann', token: `${TOKEN}+/=`, publicUrl: 'https://market.example' })],
  ])('the %s email keeps its link but not its token, in text and HTML', (_kind, email) => {
    const copy = redactedEmail(email);
    for (const part of [copy.text, copy.html]) {
      expect(part).not.toContain(TOKEN);
      expect(part).toMatch(new RegExp(`https://market\\.example/(verify-email|reset-password)\\?token=${REDACTED_TOKEN.replace(/[[\]]/g, '\\$&')}`));
    }
    expect(copy.subject).toBe(email.subject);
  });

  it('redacts a token parameter anywhere in a query, and nothing else', () => {
    expect(redactTokens('open https://x.example/a?b=1&token=abc.def~_-%2B and https://x.example/p?token=q&next=/home')).toBe(
      `open https://x.example/a?b=1&token=${REDACTED_TOKEN} and https://x.example/p?token=${REDACTED_TOKEN}&next=/home`,
    );
    expect(redactTokens('<a href="https://x.example/a?x=1&amp;token=abc">')).toBe(`<a href="https://x.example/a?x=1&amp;token=${REDACTED_TOKEN}">`);
    expect(redactTokens('Your token is safe; see https://x.example/browse?page=2')).toBe('Your token is safe; see https://x.example/browse?page=2');
  });
});
