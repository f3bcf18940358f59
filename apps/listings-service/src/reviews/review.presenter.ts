import type { PublicProfile, ReviewDto } from '@market/contracts';
import type { ReviewRow } from './review.repository';

/**
 * An author whose profile cannot be had (auth-service slow to answer) shows as their side of the sale, never as
 * someone else; a deleted account's profile comes back scrubbed.
 */
const unnamed = (role: ReviewRow['author_role']) => ({ username: role === 'buyer' ? 'A buyer' : 'A seller', name: null });

/** A review as anyone may read it: its words as written (shown as text by the web), the author's public name. */
export function presentReview(row: ReviewRow, profiles: Map<string, PublicProfile>): ReviewDto {
  const author = profiles.get(row.author_id);
  return {
    id: row.id,
    stars: row.stars,
    text: row.body,
    author: author ? { username: author.username, name: author.name } : unnamed(row.author_role),
    author_role: row.author_role,
    website_title: row.website_title,
    reply: row.reply !== null && row.replied_at !== null ? { text: row.reply, created_at: row.replied_at.toISOString() } : null,
    created_at: row.created_at.toISOString(),
  };
}

/** The people a page of reviews names. */
export function reviewAuthors(rows: ReviewRow[]): string[] {
  return rows.map((row) => row.author_id);
}
