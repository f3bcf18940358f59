import { TEST_MODE_NOTICE } from '@market/contracts';
import { escapeHtml } from './escape-html';

/** A rendered email: every email has a text and an HTML part. */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  /** Where replies go, when not to the sending address (contact mail to support: the sender). */
  replyTo?: string;
  /** Extra headers, such as List-Unsubscribe (RFC 8058) on alert emails. */
  headers?: Record<string, string>;
}

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

interface TokenLinkEmail {
  username: string;
  token: string;
  publicUrl: string;
  path: string;
  subject: string;
  textIntro: string;
  htmlIntro: string;
  action: string;
  footer: string;
}

// Verification and reset emails differ only in their words and the page their one-time link opens.
function tokenLinkEmail(input: TokenLinkEmail): RenderedEmail {
  const link = new URL(`${input.path}?token=${encodeURIComponent(input.token)}`, input.publicUrl).toString();
  return {
    subject: input.subject,
    text: [`Hi ${input.username},`, '', input.textIntro, link, '', input.footer].join('\n'),
    html: `<p>Hi ${escapeHtml(input.username)},</p>
<p>${input.htmlIntro}</p>
<p><a href="${escapeHtml(link)}">${input.action}</a></p>
<p>${input.footer}</p>`,
  };
}

/** Link to confirm an email address (D15: valid 48 hours, single use). */
export function verifyEmail(input: { username: string; token: string; publicUrl: string }): RenderedEmail {
  return tokenLinkEmail({
    ...input,
    path: '/verify-email',
    subject: 'Confirm your email address',
    textIntro: 'Please confirm your email address by opening this link:',
    htmlIntro: 'Please confirm your email address:',
    action: 'Confirm my email',
    footer: 'The link works once and expires in 48 hours. If you did not create a Site Market account, ignore this email.',
  });
}

/** Link to choose a new password (D15: valid 1 hour, single use). */
export function resetPasswordEmail(input: { username: string; token: string; publicUrl: string }): RenderedEmail {
  return tokenLinkEmail({
    ...input,
    path: '/reset-password',
    subject: 'Reset your Site Market password',
    textIntro: 'Someone asked to reset the password of your Site Market account. To choose a new one, open:',
    htmlIntro: 'Someone asked to reset the password of your Site Market account.',
    action: 'Choose a new password',
    footer: 'The link works once and expires in 1 hour. If it was not you, ignore this email: your password stays as it is.',
  });
}

/** An address with most of its local part hidden (`j***@example.com`): the old mailbox may no longer be the owner's. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** Tells the old address its account's email changed, with a link that undoes it (ADR 0034: 7 days, single use). */
export function emailChangedEmail(input: { username: string; newEmail: string; token: string; publicUrl: string }): RenderedEmail {
  const masked = maskEmail(input.newEmail);
  const contact = new URL('/contact', input.publicUrl).toString();
  return tokenLinkEmail({
    ...input,
    path: '/undo-email-change',
    subject: 'The email address of your Site Market account was changed',
    textIntro: `The email address of your Site Market account was changed to ${masked}. If this was you, there is nothing to do. If it was not, undo the change by opening this link:`,
    htmlIntro: `The email address of your Site Market account was changed to <strong>${escapeHtml(masked)}</strong>. If this was you, there is nothing to do. If it was not, undo the change:`,
    action: 'Undo this change',
    footer: `The link works once and expires in 7 days. Undoing it logs every device out and asks you to choose a new password. Need help? ${contact}`,
  });
}

/** Tells a seller their listing passed review and is live until it ends (D16, D19). */
export function listingApprovedEmail(input: { username: string; listing_id: string; title: string; expires_at: string; publicUrl: string }): RenderedEmail {
  const link = new URL(`/listing/${encodeURIComponent(input.listing_id)}`, input.publicUrl).toString();
  const ends = new Date(input.expires_at).toUTCString().replace(' GMT', ' UTC');
  return {
    subject: `Your listing "${input.title}" is live`,
    text: [
      `Hi ${input.username},`,
      '',
      `Good news: "${input.title}" passed review and is now live on Site Market.`,
      `It runs until ${ends}.`,
      `See it here: ${link}`,
      '',
      'The Site Market team',
    ].join('\n'),
    html: `<p>Hi ${escapeHtml(input.username)},</p>
<p>Good news: &ldquo;${escapeHtml(input.title)}&rdquo; passed review and is now live on Site Market.</p>
<p>It runs until ${escapeHtml(ends)}.</p>
<p><a href="${escapeHtml(link)}">View your listing</a></p>
<p>The Site Market team</p>`,
  };
}

/**
 * D11: a card hold lapsed uncaptured; the invoice can be paid again from the dashboard. A sandbox hold (`test_mode`)
 * says no real money moved (ADR 0033).
 */
export function holdExpiredEmail(input: {
  username: string;
  invoice_id: string;
  invoice_number: string;
  website_title: string;
  publicUrl: string;
  test_mode?: boolean;
}): RenderedEmail {
  const link = new URL(`/dashboard?tab=invoices&pay=${encodeURIComponent(input.invoice_id)}`, input.publicUrl).toString();
  return {
    subject: `${input.test_mode ? '[TEST MODE] ' : ''}Your payment hold for ${input.invoice_number} expired`,
    text: [
      `Hi ${input.username},`,
      '',
      ...(input.test_mode ? [TEST_MODE_NOTICE] : []),
      `The hold on your card for "${input.website_title}" (${input.invoice_number}) expired before the transfer was verified, so it was released and you were not charged.`,
      `The invoice is payable again: ${link}`,
      '',
      'The Site Market team',
    ].join('\n'),
    html: `<p>Hi ${escapeHtml(input.username)},</p>${input.test_mode ? `\n<p><strong>${escapeHtml(TEST_MODE_NOTICE)}</strong></p>` : ''}
<p>The hold on your card for &ldquo;${escapeHtml(input.website_title)}&rdquo; (${escapeHtml(input.invoice_number)}) expired before the transfer was verified, so it was released and you were not charged.</p>
<p><a href="${escapeHtml(link)}">Pay the invoice again</a></p>
<p>The Site Market team</p>`,
  };
}
