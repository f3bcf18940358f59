import type { Actor } from '@market/contracts';
import { badRequest, forbidden, requireAdmin, type AppError } from '@market/server-kit';
import type { UserEntity } from '../users/user.entity';

/** What an admin does to a member's account from the Users tab (D14, D17). */
export type UserAdminAct = 'change_status' | 'delete' | 'impersonate';

type Target = Pick<UserEntity, 'id' | 'role' | 'status'>;

/**
 * Why `actor` may not do `act` to `target`, or null when they may: the one place auth-service decides what an admin
 * may do to an account (ADR 0069). Only a real admin acts at all (never an impersonation); another admin's account is
 * never suspended, deleted or impersonated; only an active member is impersonated (and never oneself: authorizeImpersonating).
 */
export function userAdminRefusal(actor: Actor, target: Target, act: UserAdminAct): AppError | null {
  if (act === 'impersonate') {
    if (target.role === 'admin') return forbidden('Admins cannot impersonate other admins');
    if (target.status !== 'active') return badRequest('Only active users can be impersonated');
    return null;
  }
  if (target.role !== 'admin') return null;
  return forbidden(act === 'delete' ? 'Admin accounts cannot be deleted' : 'Admin accounts cannot be suspended');
}

/** Throws the refusal of userAdminRefusal, after requireAdmin's (a real admin, D14). */
export function authorizeUserAdmin(actor: Actor, target: Target, act: UserAdminAct): void {
  requireAdmin(actor);
  const refusal = userAdminRefusal(actor, target, act);
  if (refusal) throw refusal;
}

/** An admin asks to act as the account `id`: refused before anything is read when it is their own (as they typed it). */
export function authorizeImpersonating(actor: Actor, id: string): void {
  requireAdmin(actor);
  if (id === actor.user_id) throw badRequest('You cannot impersonate yourself');
}
