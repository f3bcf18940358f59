import { BIDDING_ROUTES } from '../bidding/bidding.routes';
import { ACCOUNT_ROUTES, AUTH_ROUTES } from '../auth/auth.routes';
import { ADMIN_ROUTES, FEES_ROUTES } from '../admin/admin.routes';
import { CONTACT_ROUTES, MESSAGES_ROUTES } from '../messages/messages.routes';
import type { RouteDefinition } from './define-route';

/** Every route of the public API by group: the gateway serves exactly these and the OpenAPI document lists them. */
export const API = {
  bids: BIDDING_ROUTES,
  auth: AUTH_ROUTES,
  account: ACCOUNT_ROUTES,
  admin: ADMIN_ROUTES,
  fees: FEES_ROUTES,
  messages: MESSAGES_ROUTES,
  contact: CONTACT_ROUTES,
} satisfies Record<string, Record<string, RouteDefinition>>;

/** What each tag of the API document groups. */
export const API_TAGS: Record<string, string> = {
  bids: 'Bids and offers (SPEC §7)',
  auth: 'Registration, login, email verification and password reset (D13, D15)',
  account: "The signed-in user's own profile and password",
  admin: 'The admin dashboard: users, stats, audit log, emails, settings, impersonation (real admins only, D14)',
  fees: 'What selling costs (ADR 0026)',
  messages: 'Messages between members (SPEC §7)',
  contact: 'The contact form (SPEC §5)',
};
