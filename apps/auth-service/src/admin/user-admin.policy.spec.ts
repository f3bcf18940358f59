import type { Actor } from '@market/contracts';
import { AppError } from '@market/server-kit';
import { refusalOf } from '@market/server-kit/testing';
import { authorizeImpersonating, authorizeUserAdmin, userAdminRefusal, type UserAdminAct } from './user-admin.policy';

const admin: Actor = { user_id: 'admin-1', role: 'admin' };
const member = { id: 'member-1', role: 'regular' as const, status: 'active' as const };
const suspended = { ...member, status: 'suspended' as const };
const otherAdmin = { id: 'admin-2', role: 'admin' as const, status: 'active' as const };
const self = { id: 'admin-1', role: 'admin' as const, status: 'active' as const };
const refusal = (target: typeof member | typeof suspended | typeof otherAdmin | typeof self, act: UserAdminAct) => {
  const refused = userAdminRefusal(admin, target, act);
  return refused && { status: refused.status, detail: refused.detail };
};

describe('user admin policy (ADR 0069)', () => {
  it.each([
    [member, 'change_status', null],
    [suspended, 'change_status', null],
    [otherAdmin, 'change_status', { status: 403, detail: 'Admin accounts cannot be suspended' }],
    [member, 'delete', null],
    [otherAdmin, 'delete', { status: 403, detail: 'Admin accounts cannot be deleted' }],
    [member, 'impersonate', null],
    [suspended, 'impersonate', { status: 400, detail: 'Only active users can be impersonated' }],
    [otherAdmin, 'impersonate', { status: 403, detail: 'Admins cannot impersonate other admins' }],
  ] as const)('%o: %s is %o', (target, act, expected) => {
    expect(refusal(target, act)).toEqual(expected);
  });

  it('lets only a real admin act: a member or an admin acting as a member is refused first', () => {
    const asMember = () => authorizeUserAdmin({ user_id: 'x', role: 'regular' }, member, 'delete');
    const impersonating = () => authorizeUserAdmin({ ...admin, impersonator_id: 'y' }, member, 'delete');
    for (const attempt of [asMember, impersonating]) expect(attempt).toThrow(new AppError('forbidden', 'Admin access required'));
    expect(() => authorizeUserAdmin(admin, member, 'delete')).not.toThrow();
  });

  it('refuses impersonating oneself before any account is read, by the id as the admin sent it', () => {
    expect(refusalOf(() => authorizeImpersonating(admin, self.id))).toEqual({ status: 400, detail: 'You cannot impersonate yourself' });
    expect(refusalOf(() => authorizeImpersonating(admin, member.id))).toBeNull();
    expect(refusalOf(() => authorizeImpersonating({ ...admin, impersonator_id: 'y' }, member.id))).toEqual({ status: 403, detail: 'Admin access required' });
  });
});
