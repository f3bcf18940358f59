/** The unread badge's text: the count, capped at 99+ so the tab and the header keep their width; null when none. */
export function unreadBadge(unread: number): string | null {
  if (unread <= 0) return null;
  return unread > 99 ? '99+' : String(unread);
}

/** What a screen reader hears for the unread count: "1 unread message", "3 unread messages". */
export function unreadPhrase(unread: number): string {
  return `${unread} unread message${unread === 1 ? '' : 's'}`;
}
