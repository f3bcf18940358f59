/** The most characters of a description a browse card carries (ADR 0082). */
export const LISTING_EXCERPT_CHARS = 240;

/**
 * How much of a description the excerpt reads (UTF-16 units): whitespace runs collapse to one space, so four times the
 * excerpt is plenty unless the text is mostly whitespace (then the excerpt is shorter, and still marked as cut). A
 * reader that fetches only the start fetches one more, so a longer text is known to be cut.
 */
export const LISTING_EXCERPT_READ = LISTING_EXCERPT_CHARS * 4;
const READ = LISTING_EXCERPT_READ;

/**
 * A description as a browse card shows it (ADR 0082): whitespace runs as one space, at most LISTING_EXCERPT_CHARS
 * characters (code points, never half a pair), cut at the last space within the final fifth when there is one, and
 * ending in "…" when anything was cut. It runs for every card of every browse page, so short texts take no copies.
 */
export function listingExcerpt(description: string): string {
  const read = description.length > READ;
  const head = read ? description.slice(0, READ) : description;
  const text = (/\s\s|[^\S ]/.test(head) ? head.replace(/\s+/g, ' ') : head).trim();
  // Code points never outnumber UTF-16 units: a text of at most the limit in units is whole.
  if (!read && text.length <= LISTING_EXCERPT_CHARS) return text;
  // One character is kept for the ellipsis, so the excerpt never passes the limit.
  let end = 0;
  for (let count = 0; end < text.length && count < LISTING_EXCERPT_CHARS - 1; count++) {
    const unit = text.charCodeAt(end);
    end += unit >= 0xd800 && unit <= 0xdbff && end + 1 < text.length ? 2 : 1;
  }
  // The limit's own character, when it ends the text, keeps it whole.
  const last = end < text.length && text.charCodeAt(end) >= 0xd800 && text.charCodeAt(end) <= 0xdbff && end + 1 < text.length ? 2 : 1;
  if (!read && end + last >= text.length) return text;
  let cut = text.slice(0, end);
  // A pair the read split in two ends the text read: its half is not a character.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  const space = cut.lastIndexOf(' ');
  if (space >= Math.floor(cut.length * 0.8)) cut = cut.slice(0, space);
  return `${cut.trimEnd()}…`;
}
