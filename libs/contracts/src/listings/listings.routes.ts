import { z } from 'zod';
import { MAX_SCREENSHOTS } from '@market/domain';
import { defineRoute, type MultipartBody } from '../http/define-route';
import { MessageResponseSchema, UuidSchema } from '../common.schemas';
import {
  AdminListingSchema,
  AdminListingsResponseSchema,
  BrowseListingsResponseSchema,
  ListingSchema,
  ListingsResponseSchema,
  WatchlistResponseSchema,
  WatchRemindersSchema,
} from './listing.dto';
import {
  AdminListingsQuerySchema,
  AdminUpdateListingSchema,
  AdminCancelListingSchema,
  BrowseListingsQuerySchema,
  CreateListingSchema,
  ListingStatusRequestSchema,
  UpdateListingSchema,
  WatchlistAddSchema,
  WatchRemindersRequestSchema,
} from './listing.schemas';

/** The image types a screenshot may be, recognised by content whatever the file says (D18). */
export const SCREENSHOT_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;

const ListingPath = z.object({ id: UuidSchema });
const screenshots = { name: 'screenshots', max: MAX_SCREENSHOTS, types: SCREENSHOT_MEDIA_TYPES } satisfies MultipartBody['files'];

/** Browse, view, create, edit and delete listings (SPEC §2, §5, §7). */
export const LISTINGS_ROUTES = {
  browse: defineRoute({
    method: 'get',
    path: '/listings',
    tag: 'listings',
    summary: 'Browse active listings with filters, sorting and paging (24 a page)',
    description: 'The same for every caller (no reserve amounts), so a page may come from a short shared cache.',
    auth: 'public',
    query: BrowseListingsQuerySchema,
    status: 200,
    reply: BrowseListingsResponseSchema,
  }),
  get: defineRoute({
    method: 'get',
    path: '/listings/{id}',
    tag: 'listings',
    summary: 'One listing with its seller card',
    description:
      'Drafts and listings under review are visible to their seller and admins only; the reserve amount is shown to the seller and admins only (D7).',
    auth: 'optional',
    params: ListingPath,
    status: 200,
    reply: ListingSchema,
    errors: [404],
  }),
  create: defineRoute({
    method: 'post',
    path: '/listings',
    tag: 'listings',
    summary: 'Create a listing: the sell form plus up to 5 screenshots',
    description:
      'multipart/form-data. Screenshots are checked by their content (JPEG, PNG, WebP or GIF, 5 MB and 40 megapixels each, D18) ' +
      'and stored re-encoded without metadata (EXIF, GPS). A form with files is 429 while the caller already has UPLOADS_MAX_PER_USER ' +
      'uploads running, 503 while the gateway has too many (both with Retry-After); one without files is never held back (ADR 0064). ' +
      'The listing waits for review unless auto-approve is on (D16). 403 while the seller has not verified their email and the ' +
      'platform requires it (ADR 0037).',
    auth: 'user',
    multipart: { fields: CreateListingSchema, files: screenshots },
    idempotent: true,
    status: 201,
    reply: ListingSchema,
    errors: [400, 403, 413, 429],
  }),
  update: defineRoute({
    method: 'patch',
    path: '/listings/{id}',
    tag: 'listings',
    summary: "Edit a listing (the whole form, multipart), or pause/activate it (JSON {status})",
    description:
      'multipart/form-data: every field again, existing_screenshots to keep and new screenshots (5 in all). ' +
      'application/json: {status} only. Sale terms cannot change once bids are placed; a sold listing cannot be edited. ' +
      'New screenshots meet the same upload limits as on create (429 for the caller\'s own, 503 for the gateway\'s; ADR 0064).',
    auth: 'user',
    params: ListingPath,
    body: ListingStatusRequestSchema,
    multipart: { fields: UpdateListingSchema, files: screenshots },
    status: 200,
    reply: ListingSchema,
    errors: [400, 403, 404, 413, 429],
  }),
  delete: defineRoute({
    method: 'delete',
    path: '/listings/{id}',
    tag: 'listings',
    summary: 'Delete a listing (its seller, unless sold; or an admin)',
    description:
      "403 for another member's listing the caller can see, 404 for one they cannot. A seller cannot delete a sold listing (400) or a " +
      'cancelled one (409, kept as a record), and nobody can delete one with bids that is not sold or cancelled (409): pause it, or an ' +
      "admin cancels it. Its screenshots are deleted with it; an admin's deletion of another's listing is audited.",
    auth: 'user',
    params: ListingPath,
    status: 200,
    reply: MessageResponseSchema,
    errors: [400, 403, 404, 409],
  }),
};

/** The signed-in user's own listings. */
export const USER_LISTINGS_ROUTES = {
  mine: defineRoute({
    method: 'get',
    path: '/user/listings',
    tag: 'listings',
    summary: "The caller's own listings, every status",
    description: 'Newest first and not paged, with the reserve amounts that only the seller and admins see (D7).',
    auth: 'user',
    status: 200,
    reply: ListingsResponseSchema,
  }),
};

/** The signed-in user's watchlist (SPEC §7). */
export const WATCHLIST_ROUTES = {
  list: defineRoute({
    method: 'get',
    path: '/user/watchlist',
    tag: 'watchlist',
    summary: "The caller's watched listings",
    description:
      'Newest watched first, each listing as the public sees it; a watched listing the public cannot see now (paused, back in draft or ' +
      'review, cancelled) is left out. `reminders` says whether the email before a watched auction ends is on.',
    auth: 'user',
    status: 200,
    reply: WatchlistResponseSchema,
  }),
  add: defineRoute({
    method: 'post',
    path: '/user/watchlist',
    tag: 'watchlist',
    summary: 'Watch a listing',
    description: 'Only listings the public can see; not your own; once per listing (400 the second time).',
    auth: 'user',
    body: WatchlistAddSchema,
    status: 201,
    reply: MessageResponseSchema,
    errors: [400, 404],
  }),
  reminders: defineRoute({
    method: 'put',
    path: '/user/watchlist/reminders',
    tag: 'watchlist',
    summary: 'Turn the email 24 hours before a watched auction ends on or off',
    description:
      "One switch for all the caller's watched auctions: on until turned off, and the unsubscribe link in a reminder email turns it off " +
      'too. A watched auction is reminded of once per sale period, and only if it was watched before its last day began; setting the ' +
      'same value again changes nothing.',
    auth: 'user',
    body: WatchRemindersRequestSchema,
    status: 200,
    reply: WatchRemindersSchema,
  }),
  remove: defineRoute({
    method: 'delete',
    path: '/user/watchlist/{listingId}',
    tag: 'watchlist',
    summary: 'Stop watching a listing',
    description: "Only the caller's own watchlist: 404 when the listing is not on it.",
    auth: 'user',
    params: z.object({ listingId: UuidSchema }),
    status: 200,
    reply: MessageResponseSchema,
    errors: [404],
  }),
};

/** The admin Listings tab (SPEC §2, D16): real admins only. */
export const ADMIN_LISTINGS_ROUTES = {
  list: defineRoute({
    method: 'get',
    path: '/admin/listings',
    tag: 'admin-listings',
    summary: "Every listing with its seller's username, newest first",
    description:
      'Every status, drafts and cancelled listings included, with reserve amounts (D7). `limit` (1 to 1000, default 1000) caps the rows; ' +
      'there is no paging beyond it.',
    auth: 'admin',
    query: AdminListingsQuerySchema,
    status: 200,
    reply: AdminListingsResponseSchema,
  }),
  update: defineRoute({
    method: 'patch',
    path: '/admin/listings/{id}',
    tag: 'admin-listings',
    summary: 'Feature or unfeature a listing, or set its status',
    description: 'Exactly one of featured or status. Activating a listing under review approves it; a sold listing stays sold (D16).',
    auth: 'admin',
    params: ListingPath,
    body: AdminUpdateListingSchema,
    status: 200,
    reply: AdminListingSchema,
    errors: [400, 404],
  }),
  cancel: defineRoute({
    method: 'post',
    path: '/admin/listings/{id}/cancel',
    tag: 'admin-listings',
    summary: 'Cancel a listing with a reason',
    description:
      'Ends the sale for good: every pending bid is rejected and each bidder and the seller are emailed the reason (ADR 0042). A sold or already cancelled listing is refused.',
    auth: 'admin',
    params: ListingPath,
    body: AdminCancelListingSchema,
    status: 200,
    reply: AdminListingSchema,
    errors: [404, 409],
  }),
  delete: defineRoute({
    method: 'delete',
    path: '/admin/listings/{id}',
    tag: 'admin-listings',
    summary: 'Delete any listing',
    description: 'A listing with bids is refused (409): cancel it with a reason instead, so its bidders are told (ADR 0042).',
    auth: 'admin',
    params: ListingPath,
    status: 200,
    reply: MessageResponseSchema,
    errors: [404, 409],
  }),
};

/** Stored screenshots and the site logo. */
export const UPLOADS_ROUTES = {
  get: defineRoute({
    method: 'get',
    path: '/uploads/{key}',
    tag: 'uploads',
    summary: 'A stored screenshot (or the site logo), with the image type its key names',
    description: 'Only keys the server generated (a UUID and the image extension) or logo.png; anything else is 404.',
    auth: 'public',
    params: z.object({ key: z.string().describe('A screenshot key from a listing (`<uuid>.<ext>`) or logo.png') }),
    status: 200,
    reply: { binary: SCREENSHOT_MEDIA_TYPES },
    errors: [404],
    headers: {
      'Cache-Control': 'Immutable for a year for screenshots; a day for the logo',
      'X-Content-Type-Options': 'nosniff',
    },
  }),
};
