import type { RenderedEmail } from './email-templates';
import { escapeHtml } from './escape-html';

/** What a notice email says: its words are chosen by the event's template, the layout is shared. */
export interface Notice {
  subject: string;
  paragraphs: string[];
  /** A path on the site (PUBLIC_URL is prepended when the email is rendered), or null. */
  link_path: string | null;
  action: string | null;
  reply_to?: string;
}

/** Renders a notice to one person: a greeting, the paragraphs, one link, the sign-off. */
export function noticeEmail(input: { username: string; notice: Notice; publicUrl: string }): RenderedEmail {
  const { notice } = input;
  const link = notice.link_path ? new URL(notice.link_path, input.publicUrl).toString() : null;
  const action = notice.action ?? 'Open Site Market';
  return {
    subject: notice.subject,
    text: [`Hi ${input.username},`, '', ...notice.paragraphs, ...(link ? [`${action}: ${link}`] : []), '', 'The Site Market team'].join('\n'),
    html: [
      `<p>Hi ${escapeHtml(input.username)},</p>`,
      ...notice.paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`),
      ...(link ? [`<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>`] : []),
      '<p>The Site Market team</p>',
    ].join('\n'),
    replyTo: notice.reply_to,
  };
}
