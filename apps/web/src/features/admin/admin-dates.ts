/** A date and time as the admin's locale writes it; a dash when there is none, the raw text when it is not a date. */
export function when(iso: string | null, locale?: string): string {
  if (!iso) return '\u2014';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}
