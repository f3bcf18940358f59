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
