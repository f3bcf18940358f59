import { formatDollars } from '@market/domain';
import type { RenderedEmail } from './email-templates';
import { escapeHtml } from './escape-html';
import type { SearchAlertDigest } from './search-alerts.repository';

/**
 * One saved search's alert (ADR 0074): its new listings with their links, where to manage the search, and a one-click
 * unsubscribe: the List-Unsubscribe header names the API's POST URL and List-Unsubscribe-Post says it takes the
 * one-click form (RFC 8058); the link in the body opens a page that asks before it stops anything, since mail scanners
 * open links.
 */
export function searchAlertEmail(input: { username: string; digest: SearchAlertDigest; publicUrl: string }): RenderedEmail {
  const { digest } = input;
  const url = (path: string) => new URL(path, input.publicUrl).toString();
  const count = digest.listings.length + digest.more;
  const subject = `${count} new ${count === 1 ? 'listing matches' : 'listings match'} "${digest.search_name}"`;
  const lines = digest.listings.map((l) => ({
    text: `${l.title} (${l.listing_type === 'auction' ? 'auction' : 'fixed price'}, ${formatDollars(l.price)})`,
    link: url(`/listing/${l.listing_id}`),
  }));
  const more = digest.more > 0 ? `And ${digest.more} more: see them all on Site Market.` : null;
  const manage = url('/dashboard?tab=saved-searches');
  const page = url(`/unsubscribe/${digest.unsubscribe_token}`);
  return {
    subject,
    text: [
      `Hi ${input.username},`,
      '',
      `New on Site Market for your saved search "${digest.search_name}":`,
      '',
      ...lines.map((l) => `- ${l.text}: ${l.link}`),
      ...(more ? ['', more] : []),
      '',
      `Manage your saved searches: ${manage}`,
      `Stop alerts for this search: ${page}`,
      '',
      'The Site Market team',
    ].join('\n'),
    html: [
      `<p>Hi ${escapeHtml(input.username)},</p>`,
      `<p>New on Site Market for your saved search &quot;${escapeHtml(digest.search_name)}&quot;:</p>`,
      `<ul>${lines.map((l) => `<li><a href="${escapeHtml(l.link)}">${escapeHtml(l.text)}</a></li>`).join('')}</ul>`,
      ...(more ? [`<p>${escapeHtml(more)}</p>`] : []),
      `<p><a href="${escapeHtml(manage)}">Manage your saved searches</a> · <a href="${escapeHtml(page)}">Stop alerts for this search</a></p>`,
      '<p>The Site Market team</p>',
    ].join('\n'),
    headers: {
      'List-Unsubscribe': `<${url(`/api/unsubscribe/${digest.unsubscribe_token}`)}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
