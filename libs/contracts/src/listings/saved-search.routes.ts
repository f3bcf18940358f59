import { z } from 'zod';
import { defineRoute } from '../http/define-route';
import { MessageResponseSchema, UuidSchema } from '../common.schemas';
import {
  CreateSavedSearchSchema,
  SavedSearchesResponseSchema,
  SavedSearchSchema,
  UnsubscribeResponseSchema,
  UnsubscribeTokenSchema,
  UpdateSavedSearchSchema,
} from './saved-search.schemas';

const SearchPath = z.object({ id: UuidSchema });

/** A signed-in buyer's saved searches and their alert emails (ADR 0074). */
export const SAVED_SEARCH_ROUTES = {
  list: defineRoute({
    method: 'get',
    path: '/user/saved-searches',
    tag: 'saved-searches',
    summary: "The caller's saved searches, newest first",
    description:
      "Only the caller's own; `limit` is the most an account may keep (20). Each search shows its filters, whether its alerts are on, " +
      'and how many listings matched it in the last 30 days.',
    auth: 'user',
    status: 200,
    reply: SavedSearchesResponseSchema,
  }),
  create: defineRoute({
    method: 'post',
    path: '/user/saved-searches',
    tag: 'saved-searches',
    summary: 'Save browse filters as a search, with email alerts on or off',
    description: 'At most 20 per account (409 past that); the same filters saved twice is a 409 naming the first.',
    auth: 'user',
    body: CreateSavedSearchSchema,
    status: 201,
    reply: SavedSearchSchema,
    errors: [400, 409],
  }),
  update: defineRoute({
    method: 'patch',
    path: '/user/saved-searches/{id}',
    tag: 'saved-searches',
    summary: 'Rename a saved search or turn its alerts on or off',
    description:
      "Only the caller's own searches: another user's id answers 404, like an unknown one. The filters cannot change; save a new search " +
      'for other filters.',
    auth: 'user',
    params: SearchPath,
    body: UpdateSavedSearchSchema,
    status: 200,
    reply: SavedSearchSchema,
    errors: [400, 404],
  }),
  remove: defineRoute({
    method: 'delete',
    path: '/user/saved-searches/{id}',
    tag: 'saved-searches',
    summary: 'Delete a saved search',
    description:
      "Only the caller's own searches: another user's id answers 404, like an unknown one. Its recorded matches go with it, and no more " +
      'alerts are sent for it.',
    auth: 'user',
    params: SearchPath,
    status: 200,
    reply: MessageResponseSchema,
    errors: [404],
  }),
  unsubscribe: defineRoute({
    method: 'post',
    path: '/unsubscribe/{token}',
    tag: 'saved-searches',
    summary: "One-click unsubscribe from an alert email's signed link (RFC 8058)",
    description:
      "No sign-in: the signed token says what to stop (a saved search's alerts, or the reminders before watched auctions " +
      'end). Mail clients POST `List-Unsubscribe=One-Click` as a form; any body is ignored. Unsubscribing twice answers ' +
      'the same; a token that is not ours is a 400 (one of the wrong shape a 422). A GET here is sent on (303) to the ' +
      'page /unsubscribe/{token}, which asks before it stops anything.',
    auth: 'public',
    params: z.object({ token: UnsubscribeTokenSchema }),
    status: 200,
    reply: UnsubscribeResponseSchema,
    errors: [400],
  }),
};
