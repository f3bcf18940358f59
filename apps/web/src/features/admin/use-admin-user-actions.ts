import { useNavigate } from 'react-router-dom';
import type { AdminUserDto } from '@market/contracts';
import { useConfirm } from '../../components/dialog/use-confirm';
import { useToast } from '../../components/feedback/use-toast';
import { api } from '../../lib/api';
import { errorDetail } from '../../lib/error-detail';
import { beginImpersonation } from '../../lib/impersonation';
import { useAppDispatch } from '../../lib/store-hooks';
import { startSession } from '../../session/session.slice';
import { useDeleteUserMutation, useImpersonateMutation, useUpdateUserMutation } from './admin.api';
import { useLiftBuyingHoldMutation } from './buying-holds.api';

/** How the Users tab names a member: their name, else their username. */
export const displayName = (user: AdminUserDto) => user.name || user.username;
const detailOf = (failure: unknown) => errorDetail(failure, 'Unknown error');

/**
 * What an admin does to a member from the Users tab (SPEC §2), with the spec's texts: each result in a toast, a delete
 * confirmed in a dialog. Render `toast` and `dialog` with the tab.
 */
export function useAdminUserActions() {
  const [updateUser] = useUpdateUserMutation();
  const [deleteUser] = useDeleteUserMutation();
  const [impersonate] = useImpersonateMutation();
  const [liftHold] = useLiftBuyingHoldMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { show, toast } = useToast();
  const { ask, dialog } = useConfirm();

  const setUserStatus = async (user: AdminUserDto, next: 'active' | 'suspended') => {
    try {
      await updateUser({ id: user.id, changes: { status: next } }).unwrap();
      show(`User ${displayName(user)} ${next === 'active' ? 'activated' : 'suspended'} successfully`);
    } catch (failure) {
      show(`Error updating user status: ${detailOf(failure)}`, 'error');
    }
  };

  const lift = async (user: AdminUserDto) => {
    try {
      await liftHold(user.id).unwrap();
      show(`Buying hold of ${displayName(user)} lifted`);
    } catch (failure) {
      show(`Error lifting the buying hold: ${detailOf(failure)}`, 'error');
    }
  };

  const remove = async (user: AdminUserDto) => {
    const text = `Are you sure you want to delete user "${displayName(user)}"? This action cannot be undone.`;
    if (!(await ask({ title: 'Delete user', text, confirmLabel: 'Delete user', tone: 'danger' }))) return;
    try {
      await deleteUser(user.id).unwrap();
    } catch (failure) {
      show(`Error deleting user: ${detailOf(failure)}`, 'error');
    }
  };

  const logInAs = async (user: AdminUserDto) => {
    try {
      const result = await impersonate(user.id).unwrap();
      beginImpersonation(result.impersonation_token, result.target_user, result.original_admin);
      dispatch(api.util.resetApiState());
      await dispatch(startSession());
      navigate('/');
    } catch (failure) {
      show(`Error logging in as user: ${detailOf(failure)}`, 'error');
    }
  };

  const toggleVerified = (user: AdminUserDto) => updateUser({ id: user.id, changes: { verified: !user.verified } });

  return { setUserStatus, toggleVerified, lift, remove, logInAs, toast, dialog };
}
