import { BIDDING_RPC } from './bidding/bidding.rpc';
import { LISTINGS_RPC } from './listings/listings.rpc';
import { BILLING_RPC } from './billing/billing.rpc';
import { AUTH_RPC } from './auth/auth.rpc';
import { ADMIN_RPC } from './admin/admin.rpc';
import { NOTIFICATIONS_RPC } from './messages/notifications.rpc';

/** NATS request-reply subjects, one per service operation. Services listen in queue groups named after the service. */
export const RPC = {
  auth: AUTH_RPC,
  listings: LISTINGS_RPC,
  bidding: BIDDING_RPC,
  billing: BILLING_RPC,
  admin: ADMIN_RPC,
  notifications: NOTIFICATIONS_RPC,
} as const;

/** Queue group names: every replica of a service shares its subjects' load. */
export const SERVICE_NAMES = [
  'auth-service',
  'listings-service',
  'bidding-service',
  'billing-service',
  'admin-service',
  'notifications-service',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];
