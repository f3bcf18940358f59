import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { AdminUserDto } from '@market/contracts';
import { useAppDispatch } from '../../lib/store-hooks';
import { api } from '../../lib/api';
import { beginImpersonation } from '../../lib/impersonation';
import { errorDetail } from '../../lib/error-detail';
import { startSession } from '../../session/session.slice';
import { useAdminUsersQuery, useDeleteUserMutation, useImpersonateMutation, useUpdateUserMutation } from './admin.api';
import { useBuyingHoldsQuery, useLiftBuyingHoldMutation } from './buying-holds.api';

type Filter = 'all' | string;
const displayName = (user: AdminUserDto) => user.name || user.username;
const detailOf = (failure: unknown) => errorDetail(failure, 'Unknown error');

/** Admin Users tab (SPEC §2): filters, verification toggle, suspend/activate, delete, and log in as the user. */
export function AdminUsersTab() {
  const { data, isLoading, isError } = useAdminUsersQuery();
  const [updateUser] = useUpdateUserMutation();
  const [deleteUser] = useDeleteUserMutation();
  const [impersonate] = useImpersonateMutation();
  // Members on hold after two unpaid purchases (ADR 0043), from bidding-service.
  const { data: holdsData } = useBuyingHoldsQuery();
  const [liftHold] = useLiftBuyingHoldMutation();
  const holds = useMemo(() => new Map((holdsData?.holds ?? []).map((hold) => [hold.user_id, hold])), [holdsData]);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [status, setStatus] = useState<Filter>('all');
  const [activity, setActivity] = useState<Filter>('all');
  const [verification, setVerification] = useState<Filter>('all');

  const users = useMemo(
    () =>
      (data?.users ?? []).filter(
        (user) =>
          (status === 'all' || user.status === status) &&
          (activity === 'all' || (activity === 'has' ? user.listingCount > 0 : user.listingCount === 0)) &&
          (verification === 'all' || (verification === 'verified') === user.verified),
      ),
    [data, status, activity, verification],
  );

  const setUserStatus = async (user: AdminUserDto, next: 'active' | 'suspended') => {
    try {
      await updateUser({ id: user.id, changes: { status: next } }).unwrap();
      window.alert(`User ${displayName(user)} ${next === 'active' ? 'activated' : 'suspended'} successfully`);
    } catch (failure) {
      window.alert(`Error updating user status: ${detailOf(failure)}`);
    }
  };

  const lift = async (user: AdminUserDto) => {
    try {
      await liftHold(user.id).unwrap();
      window.alert(`Buying hold of ${displayName(user)} lifted`);
    } catch (failure) {
      window.alert(`Error lifting the buying hold: ${detailOf(failure)}`);
    }
  };

  const remove = async (user: AdminUserDto) => {
    if (!window.confirm(`Are you sure you want to delete user "${displayName(user)}"? This action cannot be undone.`)) return;
    try {
      await deleteUser(user.id).unwrap();
    } catch (failure) {
      window.alert(`Error deleting user: ${detailOf(failure)}`);
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
      window.alert(`Error logging in as user: ${detailOf(failure)}`);
    }
  };

  const select = (label: string, value: string, onChange: (v: string) => void, options: Array<[string, string]>) => (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <>
      <div className="filters">
        {select('Status', status, setStatus, [['all', 'All statuses'], ['active', 'Active'], ['suspended', 'Suspended']])}
        {select('Activity', activity, setActivity, [['all', 'All users'], ['has', 'Has listings'], ['none', 'No listings']])}
        {select('Verification', verification, setVerification, [['all', 'All'], ['verified', 'Verified'], ['unverified', 'Not verified']])}
      </div>
      {isError && (
        <div className="alert alert-error" role="alert">
          Could not load users.
        </div>
      )}
      <div className="table-wrap">
        <table className="data">
          <thead>
            <tr>
              <th>User</th>
              <th>Email</th>
              <th>Role</th>
              <th>Verified</th>
              <th>Status</th>
              <th>Listings</th>
              <th>Joined</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {isLoading && (
              <tr>
                <td colSpan={8}>Loading users...</td>
              </tr>
            )}
            {!isLoading && users.length === 0 && (
              <tr>
                <td colSpan={8} className="muted">
                  No users match these filters.
                </td>
              </tr>
            )}
            {users.map((user) => {
              const isAdmin = user.role === 'admin';
              return (
                <tr key={user.id} data-testid={`user-row-${user.username}`}>
                  <td>
                    {isAdmin && <CrownIcon />}
                    <strong>{user.username}</strong>
                    {user.name && <div className="muted">{user.name}</div>}
                  </td>
                  <td>{user.email}</td>
                  <td>{user.role}</td>
                  <td>
                    {isAdmin ? (
                      <span className={`badge ${user.verified ? 'badge-blue' : 'badge-gray'}`}>{user.verified ? 'Verified' : 'No'}</span>
                    ) : (
                      <button
                        type="button"
                        className={`badge ${user.verified ? 'badge-blue' : 'badge-gray'}`}
                        style={{ border: 'none', cursor: 'pointer' }}
                        title="Toggle seller verification"
                        onClick={() => updateUser({ id: user.id, changes: { verified: !user.verified } })}
                      >
                        {user.verified ? '✔ Verified' : 'Not verified'}
                      </button>
                    )}
                  </td>
                  <td>
                    <span className={`badge ${user.status === 'active' ? 'badge-green' : 'badge-red'}`}>{user.status}</span>
                    {holds.has(user.id) && (
                      <span className="badge badge-red" style={{ marginLeft: 4 }} data-testid="buying-hold" title={`${holds.get(user.id)?.strikes ?? 2} unpaid purchases in 90 days`}>
                        Buying on hold
                      </span>
                    )}
                  </td>
                  <td>
                    {user.listingCount} ({user.activeListings} active, {user.soldListings} sold)
                  </td>
                  <td>{new Date(user.created_at).toLocaleDateString()}</td>
                  <td>
                    {isAdmin ? (
                      <span className="muted">—</span>
                    ) : (
                      <div className="row-actions">
                        {user.status === 'active' ? (
                          <button type="button" className="btn btn-ghost btn-tiny" onClick={() => setUserStatus(user, 'suspended')}>
                            Suspend
                          </button>
                        ) : (
                          <button type="button" className="btn btn-ghost btn-tiny" onClick={() => setUserStatus(user, 'active')}>
                            Activate
                          </button>
                        )}
                        {user.status === 'active' && (
                          <button type="button" className="btn btn-secondary btn-tiny" onClick={() => logInAs(user)}>
                            Log in as
                          </button>
                        )}
                        {holds.has(user.id) && (
                          <button type="button" className="btn btn-ghost btn-tiny" onClick={() => lift(user)}>
                            Lift hold
                          </button>
                        )}
                        <button type="button" className="btn btn-danger btn-tiny" onClick={() => remove(user)}>
                          Delete
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="table-footer">
        Showing {users.length} of {data?.total ?? 0} users
      </div>
    </>
  );
}

/** The admin marker of the Users table (SPEC §2); an SVG, so it shows whatever fonts the machine has. */
function CrownIcon() {
  return (
    <svg className="crown" width="16" height="14" viewBox="0 0 16 14" role="img" aria-label="Administrator">
      <title>Administrator</title>
      <path d="M1 4l3.5 3L8 1l3.5 6L15 4l-1.5 8h-11z" fill="#f59e0b" stroke="#b45309" strokeWidth="1" strokeLinejoin="round" />
    </svg>
  );
}
