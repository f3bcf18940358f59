/** A rendered email: every email has a text and an HTML part. */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** The welcome email sent after registration; links come from PUBLIC_URL, never from a request. */
export function welcomeEmail(input: { username: string; publicUrl: string }): RenderedEmail {
  const browse = new URL('/browse', input.publicUrl).toString();
  const sell = new URL('/sell', input.publicUrl).toString();
  const name = escapeHtml(input.username);
  return {
    subject: 'Welcome to Site Market',
    text: [
      `Hi ${input.username},`,
      '',
      'Welcome to Site Market, the marketplace for buying and selling websites and online businesses.',
      `Browse listings: ${browse}`,
      `Sell your site: ${sell}`,
      '',
      'The Site Market team',
    ].join('\n'),
    html: `<p>Hi ${name},</p>
<p>Welcome to Site Market, the marketplace for buying and selling websites and online businesses.</p>
<p><a href="${escapeHtml(browse)}">Browse listings</a> &middot; <a href="${escapeHtml(sell)}">Sell your site</a></p>
<p>The Site Market team</p>`,
  };
}

/** Link to confirm an email address (D15: valid 48 hours, single use). */
export function verifyEmail(input: { username: string; token: string; publicUrl: string }): RenderedEmail {
  const link = new URL(`/verify-email?token=${encodeURIComponent(input.token)}`, input.publicUrl).toString();
  return {
    subject: 'Confirm your email address',
    text: [
      `Hi ${input.username},`,
      '',
      'Please confirm your email address by opening this link:',
      link,
      '',
      'The link works once and expires in 48 hours. If you did not create a Site Market account, ignore this email.',
    ].join('\n'),
    html: `<p>Hi ${escapeHtml(input.username)},</p>
<p>Please confirm your email address:</p>
<p><a href="${escapeHtml(link)}">Confirm my email</a></p>
<p>The link works once and expires in 48 hours. If you did not create a Site Market account, ignore this email.</p>`,
  };
}

/** Link to choose a new password (D15: valid 1 hour, single use). */
export function resetPasswordEmail(input: { username: string; token: string; publicUrl: string }): RenderedEmail {
  const link = new URL(`/reset-password?token=${encodeURIComponent(input.token)}`, input.publicUrl).toString();
  return {
    subject: 'Reset your Site Market password',
    text: [
      `Hi ${input.username},`,
      '',
      'Someone asked to reset the password of your Site Market account. To choose a new one, open:',
      link,
      '',
      'The link works once and expires in 1 hour. If it was not you, ignore this email: your password stays as it is.',
    ].join('\n'),
    html: `<p>Hi ${escapeHtml(input.username)},</p>
<p>Someone asked to reset the password of your Site Market account.</p>
<p><a href="${escapeHtml(link)}">Choose a new password</a></p>
<p>The link works once and expires in 1 hour. If it was not you, ignore this email: your password stays as it is.</p>`,
  };
}
