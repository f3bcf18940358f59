import type { ReceivedMail } from '@market/server-kit/testing';

/** A message body as its recipient reads it: quoted-printable soft breaks joined and escapes decoded. */
export function readableBody(data: string): string {
  return data.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The one-time link (and its token) in the latest mail to an address that links to a page, read from what an SMTP
 * server received: the recipient's mailbox is the one place such a token is readable (ADR 0031). Null when none came.
 */
export function latestLink(messages: readonly ReceivedMail[], to: string, page: '/verify-email' | '/reset-password' | '/undo-email-change'): { url: string; token: string } | null {
  const pattern = new RegExp(`(https?://[^\\s"<>]+${page}\\?token=([A-Za-z0-9_%-]+))`);
  for (const message of [...messages].reverse()) {
    if (!message.to.some((address) => address.replace(/^<|>$/g, '').toLowerCase() === to.toLowerCase())) continue;
    const match = pattern.exec(readableBody(message.data));
    if (match) return { url: match[1], token: decodeURIComponent(match[2]) };
  }
  return null;
}
