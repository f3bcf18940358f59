/** NATS request-reply subjects, one per service operation. Services listen in queue groups named after the service. */
export const RPC = {
  auth: {
    register: 'auth.register',
    login: 'auth.login',
    me: 'auth.me',
  },
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
