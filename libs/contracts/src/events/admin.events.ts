import { z } from 'zod';
import { AdminActedSchema } from '../admin/audit.schemas';
import { id, text, time } from './fields.schemas';

/** What admins did: impersonation (gateway) and changes made from the admin pages (ADR 0032). */
export const ADMIN_EVENTS = {
  /** Written by the gateway for every impersonation start, stop and request. */
  'audit.recorded': z.object({
    admin_id: id,
    target_id: id,
    action: z.enum(['impersonation.start', 'impersonation.stop', 'request']),
    method: text,
    route: text,
    at: time,
  }),
  /**
   * An admin changed a user, a listing, a payment or the settings (ADR 0032): written in the change's transaction by
   * the service that made it, with the changed values before and after; never a password, token or secret.
   */
  'admin.acted': AdminActedSchema,
};
