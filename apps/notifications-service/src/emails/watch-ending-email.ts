import { formatDollars } from '@market/domain';
import type { EventPayloads } from '@market/contracts';
import type { RenderedEmail } from './email-templates';
import { escapeHtml } from './escape-html';

/** What the ending-soon email says: the auction, when it ends, and its price now. */
export type EndingSoon = Pick<EventPayloads['watch.ending_soon'], 'listing_id' | 'listing_title' | 'expires_at' | 'current_price' | 'bid_count' | 'unsubscribe_token'>;

/**
 * "Ending in 24 hours" for a watched auction (ADR 0074), with the one-click unsubscribe of RFC 8058 in its headers and
 * a body link to the page that asks first; the end is written in UTC, as the email cannot know the reader's zone.
 */
export function watchEndingEmail(input: { username: string; ending: EndingSoon; publicUrl: string }): RenderedEmail {
  const { ending } = input;
  const url = (path: string) => new URL(path, input.publicUrl).toString();
  const ends = new Date(ending.expires_at).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  const price = ending.bid_count > 0 ? `The current bid is ${formatDollars(ending.current_price)} (${ending.bid_count} ${ending.bid_count === 1 ? 'bid' : 'bids'}).` : `No bids yet: it starts at ${formatDollars(ending.current_price)}.`;
  const link = url(`/listing/${ending.listing_id}`);
  const stop = url(`/unsubscribe/${ending.unsubscribe_token}`);
  const paragraphs = [`"${ending.listing_title}", an auction on your watchlist, ends at ${ends}.`, price];
  return {
    subject: `Ending in 24 hours: "${ending.listing_title}"`,
    text: [`Hi ${input.username},`, '', ...paragraphs, '', `See the auction: ${link}`, '', `Stop these reminders: ${stop}`, '', 'The Site Market team'].join('\n'),
    html: [
      `<p>Hi ${escapeHtml(input.username)},</p>`,
      ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
      `<p><a href="${escapeHtml(link)}">See the auction</a></p>`,
      `<p><a href="${escapeHtml(stop)}">Stop these reminders</a></p>`,
      '<p>The Site Market team</p>',
    ].join('\n'),
    headers: {
      'List-Unsubscribe': `<${url(`/api/unsubscribe/${ending.unsubscribe_token}`)}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
