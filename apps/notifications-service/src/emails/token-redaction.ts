import type { RenderedEmail } from './email-templates';

/** What a one-time token becomes wherever a copy of its email is kept or shown (ADR 0031). */
export const REDACTED_TOKEN = '[redacted]';

// The `token` parameter of any link (verification, reset): everything up to the next delimiter.
const TOKEN_PARAMETER = /([?&](?:amp;)?token=)[^&\s"'<>]+/g;

/** The text with every link's one-time token replaced, so the copy opens no account. */
export function redactTokens(text: string): string {
  return text.replace(TOKEN_PARAMETER, `$1${REDACTED_TOKEN}`);
}

/** The email as it may be kept or shown to anyone but its recipient: text and HTML without usable links. */
export function redactedEmail(email: RenderedEmail): RenderedEmail {
  return { ...email, text: redactTokens(email.text), html: redactTokens(email.html) };
}
